/**
 * Creating a job (DESIGN §4.1), shared by POST /v1/pack and POST /v1/projects/{id}/pack:
 * idempotency claim → the ledger admits and reserves (402 / 429) → the request is stored →
 * JobQueued; then read-your-writes.
 *
 * Idempotency (spec Endpoints): the same `Idempotency-Key` within 24 hours returns the original
 * job and creates and charges nothing. The key's claim (domain/job/idempotency-claim.ts, stream
 * `idem-<org>-<sha256(key)>`) is pending until its request ends, then completed with the job or
 * released; every step is an expected-revision append, so concurrent requests with one key
 * create one job, across processes too. A key reused with a different body is
 * `422 validation_failed` (detail path `Idempotency-Key`); a request that finds the same body's
 * claim still pending after 10 s answers `409 conflict` with Retry-After.
 */
import { handleCommand } from '../domain/decider/handle.js';
import { jobDecider } from '../domain/job/decide.js';
import type { JobQueuedData } from '../domain/job/job.js';
import { abandonAdmission, type Fenced } from '../domain/job/abandon.js';
import { jobStream } from '../domain/job/streams.js';
import { storeJobRequest } from '../domain/job/body.js';
import { ledgerDecider } from '../domain/ledger/decide.js';
import type { LedgerEvent } from '../domain/ledger/ledger.js';
import { CURRENT_RATE_CARD } from '../domain/ledger/rate-card.js';
import { ledgerStream } from '../domain/ledger/streams.js';
import type { Warning } from '../domain/pack/diagnostics.js';
import type { PackModel } from '../domain/pack/plan.js';
import type { PackRequest } from '../domain/pack/request.js';
import { actorOf } from '../api/http/actor.js';
import type { Caller } from '../api/http/auth.js';
import { ApiError } from '../api/http/errors.js';
import { newId } from './id.js';
import type { Services } from '../api/http/services.js';
import { idempotencyStream } from '../domain/job/streams.js';
import {
  claimDecider,
  IDEMPOTENCY_TIMINGS,
  judgeClaim,
  type IdempotencyTimings,
} from '../domain/job/idempotency-claim.js';
import { settleStaleClaim } from '../domain/job/stale-claim.js';
import { serviceActor } from '../domain/decider/actor.js';
import { sha256Hex } from '../domain/digest.js';

const DAY_MS = 86_400_000;
/** Idempotency window (spec Limits). */
export const IDEMPOTENCY_WINDOW_MS = IDEMPOTENCY_TIMINGS.windowMs;
export const MAX_IDEMPOTENCY_KEY = 128;

/** A request that passed checkPackRequest. */
export interface CheckedRequest {
  request: PackRequest;
  model: PackModel;
  warnings: Warning[];
  items: number;
  minVehicles: number;
}

export interface NewJob {
  checked: CheckedRequest;
  source: 'api' | 'playground';
  /** Set for POST /v1/projects/{id}/pack. */
  projectId?: string;
  /** Header value, already checked with idempotencyKeyOf. */
  idempotencyKey?: string;
  /** Extra warnings to record on the job. */
  warnings?: Warning[];
}

/** The `Idempotency-Key` header, or undefined; 400 idempotency_key_invalid when longer than 128. */
export function idempotencyKeyOf(raw: string | undefined): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  // Node hands header bytes over as latin1: decode UTF-8 so a character counts once.
  const header = Buffer.from(raw, 'latin1').toString('utf8');
  if (header.length > MAX_IDEMPOTENCY_KEY) {
    throw new ApiError(
      'idempotency_key_invalid',
      `Idempotency-Key must be at most ${MAX_IDEMPOTENCY_KEY} characters, got ${header.length}`,
      [
        {
          path: 'Idempotency-Key',
          code: 'out_of_range',
          message: `must be at most ${MAX_IDEMPOTENCY_KEY} characters, got ${header.length}`,
        },
      ],
    );
  }
  return header;
}

/** The Idempotency-Key timings this service runs with (tests shorten them; IDEMPOTENCY_TIMINGS by default). */
export function idempotencyTimingsOf(services: Services): IdempotencyTimings {
  return { ...IDEMPOTENCY_TIMINGS, ...services.idempotency };
}

/** Resolves after the key's stream got an event (as the read models see the log) or after `ms`. */
function claimMoved(services: Services, stream: string, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    const off = services.projections.onApplied((e) => {
      if (e.stream === stream) done();
    });
    function done(): void {
      clearTimeout(timer);
      off();
      resolve();
    }
  });
}

/** What createJob answers: the job, whether it is an earlier request's, and the log position to wait for. */
export interface CreatedJob {
  jobId: string;
  replayed: boolean;
  position: number;
}

/**
 * Creates and queues a job, or replays the job of an earlier request with the same
 * Idempotency-Key (spec Endpoints, "Idempotency"). Throws 402 insufficient_credits, 429
 * too_many_jobs, 422 validation_failed for a key reused with another body, and 409 conflict (with
 * Retry-After) when a request with the same key and body is still creating its job after
 * `pendingWaitMs` (domain/job/idempotency-claim.ts).
 *
 * With a key, the request claims it (one expected-revision append on the key's stream) before
 * anything is reserved, and ends the claim with its outcome: completed with the queued job, or
 * released when refused or failed. A concurrent request with the same key and body never makes
 * a job of its own: it waits for the outcome and replays it (or claims anew after a release).
 */
export async function createJob(services: Services, caller: Caller, job: NewJob): Promise<CreatedJob> {
  if (job.idempotencyKey === undefined) {
    // Voided only when this admission stalled past the orphan check: admit it again under a new id.
    for (let attempt = 1; ; attempt++) {
      const jobId = newId('job');
      const queued = await admitAndQueue(services, caller, job, jobId);
      if (queued !== 'voided') return { jobId, replayed: false, position: queued.position };
      if (attempt >= 3)
        throw new Error(`admission voided ${attempt} times in a row (job ${jobId}): the store is too slow`);
    }
  }
  const timings = idempotencyTimingsOf(services);
  const bodyHash = sha256Hex(JSON.stringify({ project: job.projectId ?? null, request: job.checked.request }));
  const stream = idempotencyStream(caller.orgId, sha256Hex(job.idempotencyKey));
  const actor = actorOf(caller);
  const waitUntil = Date.now() + timings.pendingWaitMs;
  for (;;) {
    const now = services.clock();
    const jobId = newId('job');
    const claimed = await handleCommand(services.store, stream, claimDecider, {
      type: 'ClaimKey',
      data: { jobId, bodyHash },
      metadata: { now, actor },
    });
    if (claimed.events.length > 0) {
      const created = await createClaimedJob(services, caller, job, stream, jobId);
      if (created) return created;
      continue; // our job was voided: the key was taken over meanwhile; judge its claim again
    }
    const verdict = judgeClaim(claimed.state, bodyHash, now, timings);
    switch (verdict.kind) {
      case 'replay':
        // The job was queued before its claim was completed: read models at the head have it
        // (in another process they may still be catching up with the log: wait, bounded).
        await services.projections.waitFor(claimed.position, REPLAY_READ_WAIT_MS);
        return { jobId: verdict.jobId, replayed: true, position: claimed.position };
      case 'other_body':
        throw new ApiError('validation_failed', 'this Idempotency-Key was used with a different body', [
          {
            path: 'Idempotency-Key',
            code: 'invalid_value',
            message: 'the key is reused only to retry the same body; send a new key for a new job',
          },
        ]);
      case 'stale': {
        const outcome = await settleStaleClaim(services.store, stream, verdict.jobId, now, serviceActor('admission'));
        services.log.warn(
          { jobId: verdict.jobId, outcome },
          'settled an Idempotency-Key claim left pending by a request that stopped',
        );
        continue;
      }
      case 'wait': {
        const left = waitUntil - Date.now();
        if (left <= 0) {
          throw new ApiError(
            'conflict',
            `a request with this Idempotency-Key is still creating job ${verdict.jobId}; retry with the same key to get it`,
            undefined,
            {
              retryAfterSeconds: CONFLICT_RETRY_AFTER_S,
            },
          );
        }
        await claimMoved(services, stream, Math.min(left, CLAIM_POLL_MS));
        continue;
      }
      case 'claim':
        continue; // not reached: ClaimKey claims on the very state it judged
    }
  }
}

/** Longest wait for this process's read models to show a replayed job, ms (they follow the log within milliseconds). */
const REPLAY_READ_WAIT_MS = 10_000;

/** Retry-After of a `409 conflict` for a claim still pending, s: the claim's request usually ends within it. */
const CONFLICT_RETRY_AFTER_S = 1;

/** Longest time between two looks at a pending claim, ms (a claim moving wakes the waiter at once in this process). */
const CLAIM_POLL_MS = 100;

/**
 * The rest of an admission whose claim on `stream` is ours: admit and queue job `jobId`, then
 * complete the claim; on a refusal or failure release the claim and rethrow. Resolves null when
 * the job was voided (the claim was taken over while this request stalled).
 */
async function createClaimedJob(
  services: Services,
  caller: Caller,
  job: NewJob,
  stream: string,
  jobId: string,
): Promise<CreatedJob | null> {
  const actor = actorOf(caller);
  let queued: Awaited<ReturnType<typeof admitAndQueue>>;
  try {
    queued = await admitAndQueue(services, caller, job, jobId);
  } catch (err) {
    if (err instanceof ApiError) {
      // Refused (402, 429) before anything was held: the next request with the key claims anew.
      await handleCommand(services.store, stream, claimDecider, {
        type: 'ReleaseClaim',
        data: { jobId, reason: 'refused' },
        metadata: { now: services.clock(), actor },
      }).catch((release: unknown) =>
        services.log.error(
          { jobId, err: release },
          'Idempotency-Key claim not released; a retry settles it once it is stale',
        ),
      );
      throw err;
    }
    // Failed half way: the claim ends as its job's stream says (queued: completed, and this is
    // the answer; else released). When the store cannot say now, the claim stays pending until stale.
    const settled = await settleStaleClaim(services.store, stream, jobId, services.clock(), actor, 'failed').catch(
      (settle: unknown) => {
        services.log.error(
          { jobId, err: settle },
          'Idempotency-Key claim not settled; a retry or the repair tick settles it once it is stale',
        );
        return 'unknown' as const;
      },
    );
    if (settled === 'completed') return { jobId, replayed: false, position: await services.store.headPosition() };
    throw err;
  }
  if (queued === 'voided') return null;
  // The job is queued and charged: the answer is the job even when the claim cannot be completed
  // now (a stale claim is completed by whoever settles it, since its job is queued).
  await handleCommand(services.store, stream, claimDecider, {
    type: 'CompleteClaim',
    data: { jobId },
    metadata: { now: services.clock(), actor },
  }).catch((complete: unknown) =>
    services.log.error(
      { jobId, err: complete },
      'Idempotency-Key claim not completed; the repair tick completes it once it is stale',
    ),
  );
  return { jobId, replayed: false, position: queued.position };
}

/**
 * Admits job `jobId` on the ledger (402 / 429 thrown as ApiError), stores its request and queues
 * it (DESIGN §4.1). Resolves with the log position to wait for, or `voided` when the job stream
 * was fenced off (domain/job/stale-claim.ts): the hold is then released and nothing is queued.
 */
async function admitAndQueue(
  services: Services,
  caller: Caller,
  job: NewJob,
  jobId: string,
): Promise<{ position: number } | 'voided'> {
  const now = services.clock();
  const limits = caller.org.limits;
  const { checked } = job;
  const admitted = await handleCommand(services.store, ledgerStream(caller.orgId), ledgerDecider, {
    type: 'AdmitJob',
    data: {
      jobId,
      card: CURRENT_RATE_CARD,
      units: checked.items,
      minVehicles: checked.minVehicles,
      maxVehicles: checked.model.maxVehicles,
      budgetMs: checked.model.budgetMs,
      maxQueuedJobs: limits.maxQueuedJobs,
    },
    metadata: { now, actor: actorOf(caller) },
  });
  const admittedEvent = admitted.events[0] as Extract<LedgerEvent, { type: 'JobAdmitted' }> | undefined;
  if (!admittedEvent) throw new Error(`job ${jobId} was not admitted and not refused`); // fresh ids: cannot happen
  const terms = admittedEvent.data;
  const warnings: Warning[] = [...checked.warnings, ...(job.warnings ?? [])];
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
    source: job.source,
    ...(job.projectId ? { projectId: job.projectId } : {}),
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
  let position: number;
  try {
    await storeJobRequest(services.store, jobId, { request: checked.request, model: checked.model, queued });
    const handled = await handleCommand(services.store, jobStream(jobId), jobDecider, {
      type: 'QueueJob',
      data: queued,
      metadata: { now, actor: actorOf(caller) },
    });
    if (handled.state.voided) throw new JobVoided();
    position = handled.position;
  } catch (err) {
    // Whether the job was queued is decided on its own stream (domain/job/abandon.ts): a write
    // that failed after it was stored counts as stored. Only a voided job's credits are released
    // (no charge); when the store cannot say now, the hold stays for the orphan check.
    let fenced: Fenced;
    try {
      fenced = await abandonAdmission(services.store, caller.orgId, jobId, services.clock(), actorOf(caller));
    } catch (abandon) {
      services.log.error(
        { jobId, err: abandon },
        'admission failed and was not abandoned; the orphan check settles it',
      );
      if (err instanceof JobVoided) return 'voided'; // QueueJob read the job voided: it is, whatever the release did
      throw err;
    }
    if (!fenced.queued) {
      if (err instanceof JobVoided) return 'voided';
      throw err;
    }
    services.log.warn({ jobId, err }, 'admission step failed after its job was queued; answering the job');
    position = fenced.position;
  }
  await services.projections.waitFor(position, NEW_JOB_READ_WAIT_MS);
  return { position };
}

/** Longest wait for this process's read models to show a job it just queued, ms (they follow within milliseconds). */
const NEW_JOB_READ_WAIT_MS = 30_000;

/** QueueJob wrote nothing: the job stream holds JobVoided. */
class JobVoided extends Error {}
