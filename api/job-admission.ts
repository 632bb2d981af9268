/**
 * Creating a job (DESIGN §4.1), shared by POST /v1/pack and POST /v1/projects/{id}/pack:
 * idempotency claim → the ledger admits and reserves (402 / 429) → the request is stored →
 * JobQueued; then read-your-writes.
 *
 * Idempotency (spec Endpoints): the same `Idempotency-Key` within 24 hours returns the original
 * job and creates and charges nothing; the claim is an event in `idem-<org>-<sha256(key)>`
 * written with "stream must not exist" (or the expected revision of an expired claim), so two
 * concurrent requests with one key create one job. A key reused with a different body is
 * `422 validation_failed` (detail path `Idempotency-Key`).
 */
import { handleCommand, loadState } from '../domain/decider/handle.js';
import { jobDecider } from '../domain/job/decide.js';
import type { JobQueuedData } from '../domain/job/job.js';
import { jobBodyStream, jobStream } from '../domain/job/streams.js';
import { ledgerDecider } from '../domain/ledger/decide.js';
import type { LedgerEvent } from '../domain/ledger/ledger.js';
import { CURRENT_RATE_CARD } from '../domain/ledger/rate-card.js';
import { ledgerStream } from '../domain/ledger/streams.js';
import type { Warning } from '../domain/pack/diagnostics.js';
import type { PackModel } from '../domain/pack/plan.js';
import type { PackRequest } from '../domain/pack/request.js';
import { ConcurrencyError, type EventStore } from '../domain/ports/event-store.js';
import { JOBS, type JobDocument } from '../projections/jobs/job-document.js';
import { actorOf } from './actor.js';
import type { Caller } from './auth.js';
import { ApiError } from './errors.js';
import { newId } from './id.js';
import type { Services } from './services.js';
import { idempotencyStream } from '../domain/job/streams.js';
import { releaseUnqueuedJob } from '../domain/ledger/release.js';
import { sha256Hex } from '../domain/digest.js';

const DAY_MS = 86_400_000;
/** Idempotency window (spec Limits). */
export const IDEMPOTENCY_WINDOW_MS = DAY_MS;
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
    throw new ApiError('idempotency_key_invalid', `Idempotency-Key must be at most ${MAX_IDEMPOTENCY_KEY} characters, got ${header.length}`, [
      { path: 'Idempotency-Key', code: 'out_of_range', message: `must be at most ${MAX_IDEMPOTENCY_KEY} characters, got ${header.length}` },
    ]);
  }
  return header;
}

interface Claim {
  jobId: string;
  bodyHash: string;
  claimedAt: string;
}

const sha256 = sha256Hex;

/**
 * Claims the key's stream for `claim.jobId`. Returns null when the claim is ours, or the earlier
 * claim when it still stands: inside the window and `stands(earlier)` (its job exists or is
 * being created, or it was made for another body). A claim whose job never came to be (refused
 * with 402/429, or lost in a crash) is replaced, so a retry makes a new job.
 */
async function claimKey(store: EventStore, stream: string, claim: Claim, now: string, stands: (earlier: Claim) => Promise<boolean>): Promise<Claim | null> {
  for (let attempt = 0; attempt < 10; attempt++) {
    const last = await store.readLastEvent(stream);
    const earlier = last?.data as Claim | undefined;
    if (last && earlier && Date.parse(now) - Date.parse(earlier.claimedAt) < IDEMPOTENCY_WINDOW_MS && (await stands(earlier))) return earlier;
    try {
      await store.append(stream, [{ id: `${stream}:${claim.jobId}`, type: 'IdempotencyKeyClaimed', data: claim }], last ? last.revision : 'no_stream');
      return null;
    } catch (err) {
      if (!(err instanceof ConcurrencyError)) throw err;
    }
  }
  throw new ApiError('conflict', 'the Idempotency-Key is being used by concurrent requests; retry');
}

/** True once the job's read model exists (waits up to `timeoutMs` for one being queued right now). */
async function jobAppears(services: Services, jobId: string, timeoutMs: number): Promise<boolean> {
  const jobs = services.reads.collection<JobDocument>(JOBS);
  if (await jobs.get(jobId)) return true;
  return new Promise((resolve) => {
    const timer = setTimeout(() => done(false), timeoutMs);
    const off = services.projections.onApplied((e) => {
      if (e.type === 'JobQueued' && (e.data as { jobId: string }).jobId === jobId) done(true);
    });
    function done(found: boolean): void {
      clearTimeout(timer);
      off();
      resolve(found);
    }
  });
}

/**
 * Creates and queues a job, or replays the job of an earlier request with the same
 * Idempotency-Key. Throws 402 insufficient_credits, 429 too_many_jobs, 422 for a reused key.
 * Returns the job id, whether it was replayed, and the log position to wait for.
 */
export async function createJob(services: Services, caller: Caller, job: NewJob): Promise<{ jobId: string; replayed: boolean; position: number }> {
  const now = services.clock();
  const jobId = newId('job');
  if (job.idempotencyKey !== undefined) {
    const bodyHash = sha256(JSON.stringify({ project: job.projectId ?? null, request: job.checked.request }));
    const stream = idempotencyStream(caller.orgId, sha256(job.idempotencyKey));
    const stands = async (earlier: Claim): Promise<boolean> => {
      if (earlier.bodyHash !== bodyHash) return true;
      // Admitted (credits held) but not queued yet: the earlier request is still creating it.
      const { state } = await loadState(services.store, ledgerStream(caller.orgId), ledgerDecider);
      return jobAppears(services, earlier.jobId, earlier.jobId in state.reservations ? 5000 : 0);
    };
    const earlier = await claimKey(services.store, stream, { jobId, bodyHash, claimedAt: now }, now, stands);
    if (earlier) {
      if (earlier.bodyHash !== bodyHash) {
        throw new ApiError('validation_failed', 'this Idempotency-Key was used with a different body', [
          { path: 'Idempotency-Key', code: 'invalid_value', message: 'the key is reused only to retry the same body; send a new key for a new job' },
        ]);
      }
      return { jobId: earlier.jobId, replayed: true, position: services.projections.position };
    }
  }
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
    await services.store.append(
      jobBodyStream(jobId),
      [{ id: `${jobId}:request`, type: 'RequestStored', data: { request: checked.request, model: checked.model, queued } }],
      'any',
    );
    ({ position } = await handleCommand(services.store, jobStream(jobId), jobDecider, { type: 'QueueJob', data: queued, metadata: { now, actor: actorOf(caller) } }));
  } catch (err) {
    // The credits must not stay held for a job that was never queued: release them (no charge).
    await releaseUnqueuedJob(services.store, caller.orgId, jobId, services.clock(), actorOf(caller)).catch((release: unknown) => services.log.error({ jobId, err: release }, 'reservation of an unqueued job not released; the orphan check will'));
    throw err;
  }
  await services.projections.waitFor(position);
  return { jobId, replayed: false, position };
}
