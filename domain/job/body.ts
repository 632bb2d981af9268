/**
 * Events of a job's body stream (`jobbody-<id>`): the request and the resolved model, then the
 * result. Kept apart from the job stream so retention can delete bodies and keep metadata.
 *
 * Size (the event store takes at most MAX_APPEND_BYTES per append, domain/ports/event-store.ts):
 * each body is stored compressed (body-encoding.ts). When it still does not fit one event it is
 * cut into chunks: chunks 1…n−1 as `RequestPartStored` / `ResultPartStored` events, one append
 * each (EventStoreDB counts the whole batch of an append against its limit, so one atomic append
 * of several chunks would be refused as well), then chunk 0 in the head event, `RequestStored` /
 * `ResultStored`, written last. The head is the commit: once it is stored every chunk it names is
 * too, and readers take the body only from a head. Ids are deterministic: the head keeps the id of
 * the single event of earlier versions (`<jobId>:request`, `<jobId>:result`), so a retried
 * admission or result store adds nothing ("the first event id decides"); parts are named by the
 * body's digest and index (`<jobId>:request:<digest16>:<i>`), so a retry with the same body adds
 * nothing either, and parts of a retry with a different body (whose head then is not written
 * again) are ignored. Readers take the first head of each kind and its parts by digest.
 *
 * Logs written before compression hold one plain event per body (`RequestStored` with `request`,
 * `model`, `queued`; `ResultStored` with `plan`, `warnings`, `strategy`): they read as before.
 * Retention deletes the whole stream, parts included (retention.ts).
 */
import type { DomainEvent } from '../decider/decider.js';
import type { PackRequest } from '../pack/request.js';
import type { PackModel, Plan } from '../pack/plan.js';
import type { Warning } from '../pack/diagnostics.js';
import type { JobQueuedData } from './job.js';
import {
  MAX_APPEND_BYTES,
  type AppendResult,
  type EventStore,
  type NewEvent,
  type RecordedEvent,
} from '../ports/event-store.js';
import { decodeBody, encodeBody, JobBodyCorruptError, type BodyEncoding } from './body-encoding.js';
import { jobBodyStream } from './streams.js';

/** The stored request of a job: the request as sent, its resolved model and the job's JobQueued data. */
export interface StoredRequest {
  request: PackRequest;
  model: PackModel;
  queued: JobQueuedData;
}

/** The stored result of a job: the plan, its warnings and the search strategy that found it. */
export interface StoredResult {
  plan: Plan;
  warnings: Warning[];
  strategy: string;
}

/** A chunk of an encoded body: `chunk` is base64 text, chunk `index` of `count`, of the body with `digest`. */
export interface BodyChunk {
  encoding: BodyEncoding;
  digest: string;
  /** Bytes of the body's JSON before compression. */
  bytes: number;
  index: number;
  count: number;
  chunk: string;
}

/** A head event's data: the plain body of logs written before compression, or chunk 0 of the encoded body. */
type HeadData<T> = T | BodyChunk;

export type JobBodyEvent =
  | DomainEvent<'RequestStored', HeadData<StoredRequest>>
  | DomainEvent<'RequestPartStored', BodyChunk>
  | DomainEvent<'ResultStored', HeadData<StoredResult>>
  | DomainEvent<'ResultPartStored', BodyChunk>;

/** What a job's body stream holds: the stored request (null if none) and the result (null until stored). */
export interface JobBody {
  request: StoredRequest | null;
  result: StoredResult | null;
}

/**
 * Characters of base64 per chunk: the limit less room for the rest of the event (ids, type,
 * digest and the other fields take a few hundred bytes; a test measures the largest part event).
 */
export const CHUNK_CHARS = MAX_APPEND_BYTES - 16_384;

/** The two bodies of a job: event types and the suffix of their ids. */
const KINDS = {
  request: { head: 'RequestStored', part: 'RequestPartStored' },
  result: { head: 'ResultStored', part: 'ResultPartStored' },
} as const;
type Kind = keyof typeof KINDS;

/**
 * Stores a job's request (at admission). Resolves with the head event's append (written: false
 * when a retry found it stored). Throws what the store throws.
 */
export function storeJobRequest(store: EventStore, jobId: string, body: StoredRequest): Promise<AppendResult> {
  return storeBody(store, jobId, 'request', body);
}

/**
 * Stores a job's result (the solver, before SucceedJob). Resolves with the head event's append
 * (written: false when a retry found it stored). Throws what the store throws.
 */
export function storeJobResult(store: EventStore, jobId: string, body: StoredResult): Promise<AppendResult> {
  return storeBody(store, jobId, 'result', body);
}

/**
 * Reads a job's body stream from the store, on demand, and decodes the bodies in it: both, or
 * only the one named by `only` (the other is then null). Throws JobBodyCorruptError when a head's
 * chunks are missing or do not match its digest, and what the store throws.
 */
export async function readJobBody(store: EventStore, jobId: string, only?: Kind): Promise<JobBody> {
  const events = await store.readStream(jobBodyStream(jobId));
  return {
    request: only === 'result' ? null : ((await decodeKind(events, jobId, 'request')) as StoredRequest | null),
    result: only === 'request' ? null : ((await decodeKind(events, jobId, 'result')) as StoredResult | null),
  };
}

/** The events that store `body` of `kind`: the parts (chunks 1…n−1), then the head (chunk 0). */
export async function bodyEvents(jobId: string, kind: Kind, body: unknown): Promise<NewEvent[]> {
  const { encoding, digest, bytes, chunks } = await encodeBody(body, CHUNK_CHARS);
  const count = chunks.length;
  const chunk = (index: number): BodyChunk => ({ encoding, digest, bytes, index, count, chunk: chunks[index]! });
  const parts: NewEvent[] = chunks.slice(1).map((_, i) => ({
    id: `${jobId}:${kind}:${digest.slice(0, 16)}:${i + 1}`,
    type: KINDS[kind].part,
    data: chunk(i + 1),
  }));
  return [...parts, { id: `${jobId}:${kind}`, type: KINDS[kind].head, data: chunk(0) }];
}

async function storeBody(store: EventStore, jobId: string, kind: Kind, body: unknown): Promise<AppendResult> {
  const events = await bodyEvents(jobId, kind, body);
  const stream = jobBodyStream(jobId);
  let last: AppendResult | undefined;
  // One append per event, in order: the head (last) only once every part is stored.
  for (const event of events) last = await store.append(stream, [event], 'any');
  return last!;
}

const isChunk = (data: unknown): data is BodyChunk =>
  typeof data === 'object' && data !== null && 'encoding' in data && 'digest' in data;

/** The decoded body of `kind` in `events` (a body stream), or null when no head is stored. */
async function decodeKind(events: readonly RecordedEvent[], jobId: string, kind: Kind): Promise<unknown> {
  const head = events.find((e) => e.type === KINDS[kind].head);
  if (!head) return null;
  if (!isChunk(head.data)) return head.data; // a log written before compression
  const { encoding, digest, count } = head.data;
  const chunks: (string | undefined)[] = [head.data.chunk];
  for (const e of events) {
    if (e.type !== KINDS[kind].part || !isChunk(e.data) || e.data.digest !== digest) continue;
    // A part stored twice (a retry past EventStoreDB's idempotency window) counts once.
    chunks[e.data.index] ??= e.data.chunk;
  }
  for (let i = 0; i < count; i++) {
    if (chunks[i] === undefined)
      throw new JobBodyCorruptError(`job ${jobId}: ${kind} chunk ${i} of ${count} (digest ${digest}) is missing`);
  }
  return decodeBody(encoding, digest, chunks.slice(0, count) as string[]);
}
