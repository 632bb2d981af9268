/**
 * The project pack step (POST /v1/projects/{id}/pack): the project, read from its stream, is the
 * request. It is checked like a POST /v1/pack body (422 with paths into the project), the project
 * is claimed on its stream (409 project_busy while a pack is in progress), and the job is created
 * and answered like POST /v1/pack; the process manager (domain/project/process.ts) saves the plan.
 */
import type { Request, Response } from 'express';
import { handleCommand, loadState } from '../../../domain/decider/handle.js';
import type { PackRequest } from '../../../domain/pack/request.js';
import { projectDecider } from '../../../domain/project/decide.js';
import { projectPackRequest } from '../../../domain/project/pack-request.js';
import { projectStream } from '../../../domain/project/streams.js';
import { actorOf, jobCreatorOf } from '../auth/actor.js';
import { callerOf, jobSourceOf } from '../auth/auth.js';
import { checkContextFor } from '../jobs/check-context.js';
import { ApiError } from '../errors.js';
import { newId } from '../../../application/id.js';
import { createJob, IDEMPOTENCY_WINDOW_MS } from '../../../application/job-admission.js';
import type { CheckedRequest } from '../../../application/job-queueing.js';
import { idempotencyKeyOf } from '../jobs/idempotency-key.js';
import { sendCreatedJob } from '../jobs/job-view.js';
import { checkPackRequest, type CheckContext } from '../pack-request/check.js';
import { waitParam } from '../query.js';
import type { PackContext } from '../context.js';
import { sha256Hex } from '../../../domain/digest.js';

const sha256 = sha256Hex;

/** The project's PackRequest checked like a POST /v1/pack body; its problems answer 422 with paths into the project. */
function checkedRequest(request: PackRequest, ctx: CheckContext): CheckedRequest {
  const checked = checkPackRequest(request, ctx);
  if (checked.ok) return checked;
  const n = checked.details.length;
  throw new ApiError(
    'validation_failed',
    `The project is not a valid job: ${n} problem${n === 1 ? '' : 's'} (see details; paths point into the project).`,
    checked.details,
  );
}

/**
 * The handler of POST /v1/projects/{id}/pack (after authentication): claims the project on its
 * stream (409 project_busy), then creates the job like POST /v1/pack; a job that is not admitted
 * releases the claim, so no claim is left without a job. A retry with an Idempotency-Key of a
 * pack of this project (also one running concurrently: StartPack refused with project_busy for a
 * pack of the same key) skips the claim and replays through the key's claim (application/job-admission.ts).
 */
export async function packProject(ctx: PackContext, req: Request, res: Response): Promise<void> {
  const caller = callerOf(res);
  const id = String(req.params['id']);
  const waitMs = waitParam(req.query['wait']);
  const idempotencyKey = idempotencyKeyOf(req.get('idempotency-key'));
  const { state } = await loadState(ctx.store, projectStream(id), projectDecider);
  if (state.status !== 'active' || state.orgId !== caller.orgId || !state.content) {
    throw new ApiError('project_not_found', `no project ${id} in this organization`);
  }
  const request = projectPackRequest(state.content);
  const checked = checkedRequest(request, await checkContextFor(ctx, caller, request));
  const now = ctx.clock();
  const keyHash = idempotencyKey === undefined ? null : sha256(idempotencyKey);
  const replay =
    keyHash !== null &&
    (state.pack?.keyHash === keyHash ||
      state.history.some(
        (p) =>
          p.keyHash === keyHash &&
          p.jobId !== null &&
          Date.parse(now) - Date.parse(p.startedAt) < IDEMPOTENCY_WINDOW_MS,
      ));
  let packId = replay ? null : newId('pack');
  if (packId !== null) {
    try {
      await handleCommand(ctx.store, projectStream(id), projectDecider, {
        type: 'StartPack',
        data: { projectId: id, orgId: caller.orgId, packId, version: state.version, keyHash },
        metadata: { now, actor: actorOf(caller) },
      });
    } catch (err) {
      // A concurrent retry with the same key started this pack a moment ago: replay its job.
      if (!(err instanceof ApiError && err.code === 'project_busy' && keyHash !== null)) throw err;
      const current = await loadState(ctx.store, projectStream(id), projectDecider);
      if (current.state.pack?.keyHash !== keyHash) throw err;
      packId = null;
    }
  }
  let created: Awaited<ReturnType<typeof createJob>>;
  try {
    created = await createJob(ctx, jobCreatorOf(caller), {
      checked,
      source: jobSourceOf(caller),
      projectId: id,
      ...(idempotencyKey !== undefined ? { idempotencyKey } : {}),
    });
  } catch (err) {
    // idempotency_key_pending means a request with the same key is creating the job: the pack waits
    // for it (its JobQueued assigns it), so the pack is released only when no job is coming.
    const jobComing = err instanceof ApiError && err.code === 'idempotency_key_pending';
    if (packId !== null && !jobComing)
      await handleCommand(ctx.store, projectStream(id), projectDecider, {
        type: 'ReleasePack',
        data: { projectId: id, packId },
        metadata: { now: ctx.clock(), actor: actorOf(caller) },
      });
    throw err;
  }
  if (packId !== null) {
    const assigned = await handleCommand(ctx.store, projectStream(id), projectDecider, {
      type: 'AssignPackJob',
      data: { projectId: id, packId, jobId: created.jobId },
      metadata: { now: ctx.clock(), actor: actorOf(caller) },
    });
    await ctx.projections.waitFor(assigned.position);
  }
  await sendCreatedJob(ctx, req, res, caller.orgId, created, waitMs);
}
