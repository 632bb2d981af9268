/**
 * Events of a job's body stream (`jobbody-<id>`): the request and the resolved model, then the
 * result. Kept apart from the job stream so retention can delete bodies and keep metadata.
 */
import type { DomainEvent } from '../decider/decider.js';
import type { PackRequest } from '../pack/request.js';
import type { PackModel, Plan } from '../pack/plan.js';
import type { Warning } from '../pack/diagnostics.js';
import type { JobQueuedData } from './job.js';
import type { EventStore } from '../ports/event-store.js';
import { jobBodyStream } from './streams.js';

export type JobBodyEvent =
  | DomainEvent<'RequestStored', { request: PackRequest; model: PackModel; queued: JobQueuedData }>
  | DomainEvent<'ResultStored', { plan: Plan; warnings: Warning[]; strategy: string }>;

/** What a job's body stream holds: the stored request (null if none) and the result (null until stored). */
export interface JobBody {
  request: Extract<JobBodyEvent, { type: 'RequestStored' }>['data'] | null;
  result: Extract<JobBodyEvent, { type: 'ResultStored' }>['data'] | null;
}

/** Reads a job's body stream (request and result) from the store, on demand. */
export async function readJobBody(store: EventStore, jobId: string): Promise<JobBody> {
  const body: JobBody = { request: null, result: null };
  for (const e of await store.readStream(jobBodyStream(jobId))) {
    const event = { type: e.type, data: e.data } as JobBodyEvent;
    if (event.type === 'RequestStored') body.request = event.data;
    else body.result = event.data;
  }
  return body;
}
