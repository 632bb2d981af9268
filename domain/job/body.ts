/**
 * Events of a job's body stream (`jobbody-<id>`): the request and the resolved model, then the
 * result. Kept apart from the job stream so retention can delete bodies and keep metadata.
 */
import type { DomainEvent } from '../decider/decider.js';
import type { PackRequest } from '../pack/request.js';
import type { PackModel, Plan } from '../pack/plan.js';
import type { Warning } from '../pack/diagnostics.js';
import type { JobQueuedData } from './job.js';

export type JobBodyEvent =
  | DomainEvent<'RequestStored', { request: PackRequest; model: PackModel; queued: JobQueuedData }>
  | DomainEvent<'ResultStored', { plan: Plan; warnings: Warning[]; strategy: string }>;
