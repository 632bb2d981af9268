/**
 * Giving up an admission that stopped half way (DESIGN §4.1 admission, §4.4 repair): whether its
 * job was queued is decided on the job's own stream by one expected-revision append. VoidJob
 * writes JobVoided only while the stream holds no JobQueued, and a QueueJob after it writes
 * nothing, so a stalled admission that comes back later cannot queue the job any more. Used by
 * the admission's own undo, the repair of holds without a job and the take-over of a stale
 * Idempotency-Key claim (domain/job/stale-claim.ts).
 */
import type { Actor } from '../decider/actor.js';
import { handleCommand } from '../decider/handle.js';
import { releaseUnqueuedJob } from '../ledger/release.js';
import type { EventStore } from '../ports/event-store.js';
import { jobDecider } from './decide.js';
import { jobStream } from './streams.js';

/** Whether the job turned out queued, and the log position that shows it (the head when nothing was written). */
export interface Fenced {
  queued: boolean;
  position: number;
}

/** Voids job `jobId` at `now` (RFC 3339) unless it is queued already; asked by `actor`. */
export async function voidUnlessQueued(store: EventStore, jobId: string, now: string, actor: Actor): Promise<Fenced> {
  const fenced = await handleCommand(store, jobStream(jobId), jobDecider, {
    type: 'VoidJob',
    data: { jobId },
    metadata: { now, actor },
  });
  return { queued: !fenced.state.voided, position: fenced.position };
}

/**
 * Abandons the admission of job `jobId` of organization `orgId`: voids the job unless it is
 * queued, then releases its hold on the ledger (no charge) only when it was voided. Throws what
 * the store throws; both steps are idempotent, so a retry (the orphan check) finishes the work.
 */
export async function abandonAdmission(
  store: EventStore,
  orgId: string,
  jobId: string,
  now: string,
  actor: Actor,
): Promise<Fenced> {
  const fenced = await voidUnlessQueued(store, jobId, now, actor);
  if (!fenced.queued) await releaseUnqueuedJob(store, orgId, jobId, now, actor);
  return fenced;
}
