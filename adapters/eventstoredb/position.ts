/**
 * Global positions of the EventStoreDB adapter. The port's `position` (domain/ports/event-store.ts)
 * is the event's `$all` commit position: a byte offset in the server's transaction log, kept as
 * a Number.
 *
 * - Why a Number is exact: a commit position is a byte offset, so it reaches 2^53 only after
 *   8 PiB of log (2^53 bytes); `toPortPosition` throws a RangeError before it could round.
 * - Why the commit position alone names one event: every gRPC append is written as implicitly
 *   committed records, one per event, so an event's commit position is its own log position
 *   (commit == prepare) and no two events share it. Only the legacy TCP API's explicit
 *   transactions give several events one commit position; this service never writes those.
 * - Why it is 1-based as the port says: the log opens with an epoch record at byte 0, so every
 *   event lies after it; 0 stays free for "before everything".
 */
import { START, type Position, type ReadPosition } from '@eventstore/db-client';

/** The port position (a Number) of a `$all` commit position. Throws RangeError past 2^53 - 1. */
export function toPortPosition(commit: bigint): number {
  if (commit < 0n || commit > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new RangeError(`$all commit position ${commit} does not fit a safe integer`);
  }
  return Number(commit);
}

/**
 * The `$all` position of the event at port position `position` (commit and prepare are equal for
 * every event this service writes, see above). Throws RangeError unless `position` is a positive
 * safe integer.
 */
export function toLogPosition(position: number): Position {
  if (!Number.isSafeInteger(position) || position <= 0) {
    throw new RangeError(`log position must be a positive safe integer, got ${position}`);
  }
  const p = BigInt(position);
  return { commit: p, prepare: p };
}

/**
 * Where a forward read of `$all` starts to see every event after port position `after`: the
 * beginning of the log for 0, else the event at `after` itself. Forward reads of `$all` include
 * the event at their start position, so readers skip events at or below `after`.
 */
export function readStart(after: number): ReadPosition {
  return after <= 0 ? START : toLogPosition(after);
}
