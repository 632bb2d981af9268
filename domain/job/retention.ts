/**
 * Retention (spec Job.expires_at: "When request/result bodies and the PDF link are deleted;
 * metadata and charges are kept"; Limits rule 4): once a final job is past its expires_at, its
 * body stream (`jobbody-<id>`: request, resolved model, plan) and its plan revisions
 * (`jobrevision-<id>`, revision.ts) are deleted from the event store for good, then
 * `JobBodyDeleted` is recorded on the job. The job's metadata, summary and charge stay.
 * Both steps are idempotent, so a stop between them is repaired by the next tick.
 */
import { serviceActor } from '../decider/actor.js';
import { handleCommand } from '../decider/handle.js';
import type { EventStore } from '../ports/event-store.js';
import { jobDecider } from './decide.js';
import { isFinal, type JobStatus } from './job.js';
import { jobBodyStream, jobRevisionStream, jobStream } from './streams.js';

/** A job as retention sees it (from the jobs projection). */
export interface RetainedJob {
  id: string;
  status: JobStatus;
  expiresAt: string;
  bodyDeletedAt?: string | null;
}

/**
 * Deletes the bodies of the `jobs` that are final and past expires_at at `now` (RFC 3339) and not
 * yet deleted; resolves with how many jobs it recorded. Throws what the store throws.
 */
export async function deleteExpiredBodies(
  store: EventStore,
  jobs: readonly RetainedJob[],
  now: string,
): Promise<number> {
  let deleted = 0;
  for (const job of jobs) {
    if (!isFinal(job.status) || job.bodyDeletedAt || now < job.expiresAt) continue;
    await store.deleteStream(jobBodyStream(job.id));
    await store.deleteStream(jobRevisionStream(job.id));
    const out = await handleCommand(store, jobStream(job.id), jobDecider, {
      type: 'RecordBodyDeleted',
      data: { jobId: job.id },
      metadata: { now, actor: serviceActor('repair') },
    });
    if (out.events.length > 0) deleted++;
  }
  return deleted;
}
