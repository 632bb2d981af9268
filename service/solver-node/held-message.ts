/**
 * One solve command held by a solver node until it is settled explicitly: acked when the job's
 * outcome is stored (or the job is no longer running), terminated when it was delivered too
 * often, handed back (`nak(0)`) when the node closes. While the node holds it (waiting for a
 * compute slot, computing, or waiting out a store outage) it tells the bus so every
 * KEEP_ALIVE_MS (`working()`), so the ack wait never runs out on it.
 *
 * Infrastructure errors are not attempts: a store that cannot be read or written is waited out
 * with the message held (store-retry.ts); only a failure of the job itself (a node killed
 * mid-search, so the bus redelivers) counts toward MAX_SOLVE_ATTEMPTS.
 */
import { loadState } from '../../domain/decider/handle.js';
import { jobDecider } from '../../domain/job/decide.js';
import type { JobEvent, JobState } from '../../domain/job/job.js';
import type { SolveMessage } from '../../domain/job/process.js';
import { jobStream } from '../../domain/job/streams.js';
import type { BusMessage } from '../../domain/ports/bus.js';
import { ComputeSlotsClosed, SlotWaitAborted, type ComputeSlots, type ReleaseSlot } from './compute-slots.js';
import { failJob } from './job-records.js';
import { runJob, type JobRunParts } from './job-run.js';
import { NodeClosing } from './store-retry.js';

/**
 * Deliveries of one solve command before the node gives up on it (STYLE: never re-queue forever):
 * the job then fails with `engine_failed` (not charged) and the message is terminated. A node
 * killed mid-search costs one delivery; a store outage costs none (the node holds the message and
 * retries, store-retry.ts).
 */
export const MAX_SOLVE_ATTEMPTS = 5;

/** How often the node tells the bus it still holds a message (`working()`), ms: well inside any ack wait. */
export const KEEP_ALIVE_MS = 1000;

/** What holding a message uses of its node: a job run's parts and the node's compute slots. */
export interface IntakeParts extends JobRunParts {
  /** The node's compute slots, taken in a fair order across organizations (compute-slots.ts). */
  slots: ComputeSlots;
}

/**
 * Holds `msg` until it is settled: `working()` every KEEP_ALIVE_MS whatever the node waits for
 * (a compute slot, the search, the store), `nak(0)` when the node closes first. Errors that are
 * not the store's (a decider's refusal, a conflict that outlasted its retries) hand the message
 * back after a second and so count as an attempt.
 */
export async function holdMessage(parts: IntakeParts, msg: BusMessage<SolveMessage>): Promise<void> {
  const { jobId } = msg.data;
  if (parts.stopping.aborted) {
    msg.nak(0);
    return;
  }
  const keepAlive = setInterval(() => msg.working(), KEEP_ALIVE_MS);
  try {
    await take(parts, msg);
  } catch (err) {
    if (err instanceof NodeClosing || err instanceof ComputeSlotsClosed) {
      msg.nak(0);
      return;
    }
    parts.log.error({ jobId, err, attempt: msg.attempt }, 'handling the solve command failed; it is delivered again');
    msg.nak(1000);
  } finally {
    clearInterval(keepAlive);
  }
}

/** Reads the job, gives up on one delivered too often, else waits for a compute slot and runs the job. */
async function take(parts: IntakeParts, msg: BusMessage<SolveMessage>): Promise<void> {
  const { jobId } = msg.data;
  const { store, log, retry, slots, cancellation } = parts;
  const { state } = await retry.run('reading the job', jobId, () =>
    loadState<JobState, JobEvent>(store, jobStream(jobId), jobDecider),
  );
  if (state.status !== 'running') {
    msg.ack();
    return;
  }
  if (msg.attempt > MAX_SOLVE_ATTEMPTS) {
    log.error({ jobId, attempt: msg.attempt }, 'solve command delivered too often; the job fails with engine_failed');
    await failJob(
      parts,
      jobId,
      0,
      'engine_failed',
      `the packing engine could not finish the job in ${MAX_SOLVE_ATTEMPTS} attempts; nothing was charged for compute`,
    );
    msg.term(`gave up after ${MAX_SOLVE_ATTEMPTS} attempts`);
    return;
  }
  // Wait for a compute slot in the fair order (rejects with ComputeSlotsClosed on close).
  const wait = cancellation.slotWait(jobId);
  let release: ReleaseSlot;
  try {
    release = await slots.acquire(state.queued!.orgId, wait.signal);
  } catch (err) {
    if (!(err instanceof SlotWaitAborted)) throw err;
    log.info({ jobId }, 'solve command dropped: the job ended while it waited for a compute slot');
    msg.ack();
    return;
  } finally {
    wait.done();
  }
  try {
    await runJob(parts, msg, state);
  } finally {
    release();
  }
}
