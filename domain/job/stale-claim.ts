/**
 * Settling an Idempotency-Key claim left pending (domain/job/idempotency-claim.ts): its request
 * stopped between the claim and the end of the admission, usually because its process died.
 *
 * Whether the claim's job was queued is decided on the job's own stream (domain/job/abandon.ts):
 * either the job was queued (the claim is completed with it and
 * replays return it) or it never will be (the claim is released and the next request claims
 * anew); a slow admission that comes back later finds its job voided and makes nothing.
 * Used by a request that meets a stale claim (application/job-admission.ts) and by the repair tick.
 */
import type { Actor } from '../decider/actor.js';
import { handleCommand } from '../decider/handle.js';
import type { EventStore } from '../ports/event-store.js';
import { voidUnlessQueued } from './abandon.js';
import { claimDecider, type ClaimReleaseReason } from './idempotency-claim.js';

/**
 * Settles the pending claim of `jobId` on the key stream `stream` at `now` (RFC 3339), asked by
 * `actor`. Resolves with what became of it: `completed` (the job was queued) or `released` with
 * `reason` (the job is voided). Idempotent: settling a claim that is no longer pending writes nothing.
 */
export async function settleStaleClaim(
  store: EventStore,
  stream: string,
  jobId: string,
  now: string,
  actor: Actor,
  reason: ClaimReleaseReason = 'abandoned',
): Promise<'completed' | 'released'> {
  if ((await voidUnlessQueued(store, jobId, now, actor)).queued) {
    await handleCommand(store, stream, claimDecider, {
      type: 'CompleteClaim',
      data: { jobId },
      metadata: { now, actor },
    });
    return 'completed';
  }
  await handleCommand(store, stream, claimDecider, {
    type: 'ReleaseClaim',
    data: { jobId, reason },
    metadata: { now, actor },
  });
  return 'released';
}
