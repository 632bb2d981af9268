/**
 * Revoking a job's signed links (viewer and PDF), the one use case behind the owner's button in
 * the web app (POST /app/api/jobs/{id}/revoke-links) and the operator's `admin revoke-links`:
 * the job's RevokeLinks command raises its link generation (JobLinksRevoked), so every link issued
 * so far is refused like a tampered one (404 not_found) and links issued afterwards open.
 */
import type { Actor } from '../domain/decider/actor.js';
import { handleCommand } from '../domain/decider/handle.js';
import { jobDecider } from '../domain/job/decide.js';
import { jobStream } from '../domain/job/streams.js';
import type { EventStore } from '../domain/ports/event-store.js';

/** What a revocation wrote: the job's new link generation and the log position of its event. */
export interface LinksRevoked {
  jobId: string;
  generation: number;
  revokedAt: string;
  position: number;
}

/**
 * Revokes every signed link of `jobId` issued until `now` (RFC 3339), asked by `actor`. Throws
 * DomainError job_not_found for a job that was never queued. The caller checks who may revoke
 * (the job's organization's owner; an operator) and waits for `position` where read models matter.
 */
export async function revokeJobLinks(
  store: EventStore,
  jobId: string,
  actor: Actor,
  now: string,
): Promise<LinksRevoked> {
  const handled = await handleCommand(store, jobStream(jobId), jobDecider, {
    type: 'RevokeLinks',
    data: { jobId },
    metadata: { now, actor },
  });
  return { jobId, generation: handled.state.linkGeneration ?? 0, revokedAt: now, position: handled.position };
}
