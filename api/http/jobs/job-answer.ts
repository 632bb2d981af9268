/**
 * The JSON answer of GET /v1/jobs/{id} (spec Job, without `result`), kept per job document: the
 * process's read-model cache (projections/read-model-cache.ts) hands the same document object to
 * every request until an event changes the job, so the view, its JSON and its ETag are made once
 * per document and reused while nothing they show can differ.
 *
 * What a view shows besides the document: the base URL of its links (configured, or the
 * request's Host), whether its plan links are live (a succeeded job before `expires_at`: the links
 * become "" when it passes, read at every request) and `queue_ms`, which grows with the clock
 * while the job waits for a solver. A kept answer is reused only for the same service, base URL
 * and liveness, and a view whose `queue_ms` still grows is never kept. Signed links are a pure
 * function of the signing key, the job, its `expires_at` and its link generation (a revocation is
 * an event: a new document).
 */
import type { Request } from 'express';
import type { JobDocument } from '../../../projections/jobs/job-document.js';
import type { UseCasePorts } from '../../../application/ports.js';
import type { LinkSettings } from '../context.js';
import { jsonAnswer, type JsonAnswer } from '../json-answer.js';
import { baseUrl, retained } from '../plan-links/plan-links.js';
import { jobView } from './job-view.js';

/** A kept answer and what it was made for. */
interface Kept {
  ctx: object;
  base: string;
  live: boolean;
  answer: JsonAnswer;
}

const kept = new WeakMap<JobDocument, Kept>();

/** True when the job's `queue_ms` no longer depends on the clock (queueMsOf: computing began, or the job ended). */
export function queueMsSettled(job: JobDocument): boolean {
  return Boolean(job.computeStartedAt ?? (job.status === 'succeeded' ? job.startedAt : null) ?? job.finishedAt);
}

/**
 * The Job view of `job` at `now` (RFC 3339, else the clock's) as a JsonAnswer: the kept one when
 * `job` is the very document it was made from and it still shows the same thing (see the module
 * comment), else a new one (kept when it can be). The document must not be changed afterwards
 * (cached documents are read-only).
 */
export function jobAnswer(
  ctx: UseCasePorts & LinkSettings,
  req: Request,
  job: JobDocument,
  now: string = ctx.clock(),
): JsonAnswer {
  const base = baseUrl(ctx, req);
  const live = job.status === 'succeeded' && retained(job, now);
  const held = kept.get(job);
  if (held !== undefined && held.ctx === ctx && held.base === base && held.live === live) return held.answer;
  const answer = jsonAnswer(jobView(ctx, req, job, now));
  if (queueMsSettled(job)) kept.set(job, { ctx, base, live, answer });
  return answer;
}
