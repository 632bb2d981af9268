/**
 * POST /v1/pack (spec Endpoints; DESIGN §4.1): authenticate → validate and resolve the body →
 * price → the ledger admits and reserves (402 / 429) → the request is stored → JobQueued.
 * `?wait=` up to 60 s answers 200 with the result inlined when the job ended in time, else 202.
 */
import { Router } from 'express';
import { randomInt } from 'node:crypto';
import { handleCommand } from '../../domain/decider/handle.js';
import { jobDecider } from '../../domain/job/decide.js';
import type { JobQueuedData } from '../../domain/job/job.js';
import { jobBodyStream, jobStream } from '../../domain/job/streams.js';
import { ledgerDecider } from '../../domain/ledger/decide.js';
import type { LedgerEvent } from '../../domain/ledger/ledger.js';
import { CURRENT_RATE_CARD } from '../../domain/ledger/rate-card.js';
import { ledgerStream } from '../../domain/ledger/streams.js';
import { findPreset } from '../../domain/vehicle/presets.js';
import type { Warning } from '../../domain/pack/diagnostics.js';
import { checkPackRequest, type CheckContext } from '../pack-request/check.js';
import { authenticate, callerOf, type Caller } from '../auth.js';
import { setCreditsHeader } from '../credits-header.js';
import { jsonBody } from '../body.js';
import { ApiError } from '../errors.js';
import { newId } from '../id.js';
import { jobView, resultView } from '../job-view.js';
import { waitForJobEnd } from '../job-wait.js';
import { waitParam } from '../query.js';
import type { Services } from '../services.js';

const DAY_MS = 86_400_000;

/** The organization facts validation and resolution need (spec Limits, saved data). */
export function checkContext(services: Services, caller: Caller): CheckContext {
  const limits = caller.org.limits;
  return {
    allowedVehicleTypes: limits.allowedVehicleTypes,
    maxItemsPerRequest: limits.maxItemsPerRequest,
    maxVehiclesPerRequest: limits.maxVehiclesPerRequest,
    maxTimeLimitSeconds: limits.maxTimeLimitSeconds,
    axleAccess: caller.org.axleAccess,
    findVehicle: findPreset,
    findTemplate: () => undefined,
    seed: services.seed ? services.seed() : randomInt(1, 2 ** 31 - 1),
  };
}

export function packRouter(services: Services): Router {
  const router = Router();

  router.post('/v1/pack', authenticate(services, 'pack:write'), async (req, res) => {
    const caller = callerOf(res);
    const waitMs = waitParam(req.query['wait']);
    const checked = checkPackRequest(jsonBody(req), checkContext(services, caller));
    if (!checked.ok) throw new ApiError(checked.status, checked.code, checked.message, checked.details);

    const now = services.clock();
    const jobId = newId('job');
    const limits = caller.org.limits;
    const admitted = await handleCommand(services.store, ledgerStream(caller.orgId), ledgerDecider, {
      type: 'AdmitJob',
      jobId,
      now,
      card: CURRENT_RATE_CARD,
      units: checked.items,
      minVehicles: checked.minVehicles,
      maxVehicles: checked.model.maxVehicles,
      budgetMs: checked.model.budgetMs,
      maxQueuedJobs: limits.maxQueuedJobs,
    });
    const terms = (admitted.events[0] as Extract<LedgerEvent, { type: 'JobAdmitted' }>).data;
    const warnings: Warning[] = [...checked.warnings];
    if (terms.maxVehicles < checked.model.maxVehicles || terms.budgetMs < checked.model.budgetMs) {
      warnings.push({
        code: 'limited_by_balance',
        message: `available credits cover ${terms.maxVehicles} vehicles and ${terms.budgetMs} ms of compute for this job, less than requested`,
      });
    }
    const queued: JobQueuedData = {
      jobId,
      orgId: caller.orgId,
      keyId: caller.keyId,
      memberId: caller.memberId,
      source: 'api',
      reference: checked.request.reference ?? null,
      createdAt: now,
      expiresAt: new Date(Date.parse(now) + limits.retentionDays * DAY_MS).toISOString(),
      items: checked.items,
      maxVehicles: terms.maxVehicles,
      budgetMs: terms.budgetMs,
      reservedMicros: terms.reserved,
      rateCardVersion: CURRENT_RATE_CARD.version,
      warnings,
    };
    await services.store.append(
      jobBodyStream(jobId),
      [{ id: `${jobId}:request`, type: 'RequestStored', data: { request: checked.request, model: checked.model, queued } }],
      'no_stream',
    );
    const { position } = await handleCommand(services.store, jobStream(jobId), jobDecider, { type: 'QueueJob', data: queued });
    await services.projections.waitFor(position);

    const job = (await waitForJobEnd(services, jobId, waitMs))!;
    await setCreditsHeader(services, res, caller.orgId);
    const body = jobView(services, req, job);
    const ended = job.status === 'succeeded' || job.status === 'failed' || job.status === 'canceled';
    if (ended && job.status === 'succeeded') body['result'] = await resultView(services, req, job);
    res.status(ended && waitMs > 0 ? 200 : 202).json(body);
  });

  return router;
}
