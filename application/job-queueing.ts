/**
 * Admitting and queueing one job (DESIGN §4.1): the ledger admits and reserves (402
 * insufficient_credits / 429 too_many_jobs, thrown as DomainError) → the request is stored →
 * JobQueued → the read models show it. The Idempotency-Key claim around it is
 * application/job-admission.ts.
 */
import { handleCommand } from '../domain/decider/handle.js';
import type { Actor } from '../domain/decider/actor.js';
import { jobDecider } from '../domain/job/decide.js';
import type { JobQueuedData } from '../domain/job/job.js';
import { abandonAdmission, type Fenced } from '../domain/job/abandon.js';
import { jobStream } from '../domain/job/streams.js';
import { storeJobRequest } from '../domain/job/body.js';
import { ledgerDecider } from '../domain/ledger/decide.js';
import type { LedgerEvent, LedgerFunds } from '../domain/ledger/ledger.js';
import { CURRENT_RATE_CARD } from '../domain/ledger/rate-card.js';
import { ledgerStream } from '../domain/ledger/streams.js';
import type { OrgLimits } from '../domain/organization/limits.js';
import type { Warning } from '../domain/pack/diagnostics.js';
import type { PackModel } from '../domain/pack/plan.js';
import type { PackRequest } from '../domain/pack/request.js';
import type { IdempotencyTimings } from '../domain/job/idempotency-claim.js';
import type { UseCaseLog, UseCasePorts } from './ports.js';

const DAY_MS = 86_400_000;

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
  /** The Idempotency-Key, already checked (at most 128 characters). */
  idempotencyKey?: string;
  /** Extra warnings to record on the job. */
  warnings?: Warning[];
}

/**
 * Who creates the job: the organization, the API key (or web app session `ses_…`) and member it
 * is recorded under, the actor of its commands, and the organization's limits that bound it.
 */
export interface JobCreator {
  orgId: string;
  keyId: string;
  memberId: string;
  actor: Actor;
  limits: Pick<OrgLimits, 'maxQueuedJobs' | 'retentionDays'>;
}

/**
 * What admission works through: the use cases' ports, a log for what it works around, and the
 * Idempotency-Key timings when they differ from IDEMPOTENCY_TIMINGS (ms; tests shorten them).
 */
export interface AdmissionPorts extends UseCasePorts {
  log: UseCaseLog;
  idempotency?: Partial<Pick<IdempotencyTimings, 'pendingStaleAfterMs' | 'pendingWaitMs'>>;
}

/**
 * Admits job `jobId` on the ledger (402 / 429 thrown as DomainError), stores its request and queues
 * it (DESIGN §4.1). Resolves with the log position to wait for and the ledger's funds right after
 * the admission (what X-Credits-Remaining of the answer is computed from, without reading the
 * balance again), or `voided` when the job stream was fenced off (domain/job/stale-claim.ts): the
 * hold is then released and nothing is queued.
 */
export async function admitAndQueue(
  ports: AdmissionPorts,
  creator: JobCreator,
  job: NewJob,
  jobId: string,
): Promise<{ position: number; funds: LedgerFunds } | 'voided'> {
  const now = ports.clock();
  const limits = creator.limits;
  const { checked } = job;
  const admitted = await handleCommand(ports.store, ledgerStream(creator.orgId), ledgerDecider, {
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
    metadata: { now, actor: creator.actor },
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
    orgId: creator.orgId,
    keyId: creator.keyId,
    memberId: creator.memberId,
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
    await storeJobRequest(ports.store, jobId, { request: checked.request, model: checked.model, queued });
    const handled = await handleCommand(ports.store, jobStream(jobId), jobDecider, {
      type: 'QueueJob',
      data: queued,
      metadata: { now, actor: creator.actor },
    });
    if (handled.state.voided) throw new JobVoided();
    position = handled.position;
  } catch (err) {
    // Whether the job was queued is decided on its own stream (domain/job/abandon.ts): a write
    // that failed after it was stored counts as stored. Only a voided job's credits are released
    // (no charge); when the store cannot say now, the hold stays for the orphan check.
    let fenced: Fenced;
    try {
      fenced = await abandonAdmission(ports.store, creator.orgId, jobId, ports.clock(), creator.actor);
    } catch (abandon) {
      ports.log.error({ jobId, err: abandon }, 'admission failed and was not abandoned; the orphan check settles it');
      if (err instanceof JobVoided) return 'voided'; // QueueJob read the job voided: it is, whatever the release did
      throw err;
    }
    if (!fenced.queued) {
      if (err instanceof JobVoided) return 'voided';
      throw err;
    }
    ports.log.warn({ jobId, err }, 'admission step failed after its job was queued; answering the job');
    position = fenced.position;
  }
  await ports.projections.waitFor(position, NEW_JOB_READ_WAIT_MS);
  const { subscription, subscriptionExpiresAt, purchased, reserved } = admitted.state;
  return { position, funds: { subscription, subscriptionExpiresAt, purchased, reserved } };
}

/** Longest wait for this process's read models to show a job it just queued, ms (they follow within milliseconds). */
const NEW_JOB_READ_WAIT_MS = 30_000;

/** QueueJob wrote nothing: the job stream holds JobVoided. */
class JobVoided extends Error {}
