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
 * claim still pending after 10 s answers `503 idempotency_key_pending` with Retry-After, which the
 * spec's retry rules retry (a claim its process left behind is taken over once stale, and the
 * embedded profile settles such claims at start-up, domain/job/repair.ts).
 */
import { handleCommand } from '../domain/decider/handle.js';
import { DomainError } from '../domain/errors.js';
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
import { newId } from './id.js';
import { admitAndQueue, type AdmissionPorts, type JobCreator, type NewJob } from './job-queueing.js';
import type { LedgerFunds } from '../domain/ledger/ledger.js';

/** Idempotency window (spec Limits). */
export const IDEMPOTENCY_WINDOW_MS = IDEMPOTENCY_TIMINGS.windowMs;

/** The Idempotency-Key timings this service runs with (tests shorten them; IDEMPOTENCY_TIMINGS by default). */
export function idempotencyTimingsOf(ports: Pick<AdmissionPorts, 'idempotency'>): IdempotencyTimings {
  return { ...IDEMPOTENCY_TIMINGS, ...ports.idempotency };
}

/** Resolves after the key's stream got an event (as the read models see the log) or after `ms`. */
function claimMoved(ports: Pick<AdmissionPorts, 'projections'>, stream: string, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    const off = ports.projections.onApplied((e) => {
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
  /** The ledger's funds right after this request admitted the job (absent for a replay). */
  funds?: LedgerFunds;
}

/**
 * Creates and queues a job, or replays the job of an earlier request with the same
 * Idempotency-Key (spec Endpoints, "Idempotency"). Throws 402 insufficient_credits, 429
 * too_many_jobs, 422 validation_failed for a key reused with another body, and 503
 * idempotency_key_pending (with Retry-After) when a request with the same key and body is still
 * creating its job after
 * `pendingWaitMs` (domain/job/idempotency-claim.ts).
 *
 * With a key, the request claims it (one expected-revision append on the key's stream) before
 * anything is reserved, and ends the claim with its outcome: completed with the queued job, or
 * released when refused or failed. A concurrent request with the same key and body never makes
 * a job of its own: it waits for the outcome and replays it (or claims anew after a release).
 */
export async function createJob(ports: AdmissionPorts, creator: JobCreator, job: NewJob): Promise<CreatedJob> {
  if (job.idempotencyKey === undefined) {
    // Voided only when this admission stalled past the orphan check: admit it again under a new id.
    for (let attempt = 1; ; attempt++) {
      const jobId = newId('job');
      const queued = await admitAndQueue(ports, creator, job, jobId);
      if (queued !== 'voided') return { jobId, replayed: false, position: queued.position, funds: queued.funds };
      if (attempt >= 3)
        throw new Error(`admission voided ${attempt} times in a row (job ${jobId}): the store is too slow`);
    }
  }
  const timings = idempotencyTimingsOf(ports);
  const bodyHash = sha256Hex(JSON.stringify({ project: job.projectId ?? null, request: job.checked.request }));
  const stream = idempotencyStream(creator.orgId, sha256Hex(job.idempotencyKey));
  const actor = creator.actor;
  const waitUntil = Date.now() + timings.pendingWaitMs;
  for (;;) {
    const now = ports.clock();
    const jobId = newId('job');
    const claimed = await handleCommand(ports.store, stream, claimDecider, {
      type: 'ClaimKey',
      data: { jobId, bodyHash },
      metadata: { now, actor },
    });
    if (claimed.events.length > 0) {
      const created = await createClaimedJob(ports, creator, job, stream, jobId);
      if (created) return created;
      continue; // our job was voided: the key was taken over meanwhile; judge its claim again
    }
    const verdict = judgeClaim(claimed.state, bodyHash, now, timings);
    switch (verdict.kind) {
      case 'replay':
        // The job was queued before its claim was completed: read models at the head have it
        // (in another process they may still be catching up with the log: wait, bounded).
        await ports.projections.waitFor(claimed.position, REPLAY_READ_WAIT_MS);
        return { jobId: verdict.jobId, replayed: true, position: claimed.position };
      case 'other_body':
        throw new DomainError('validation_failed', 'this Idempotency-Key was used with a different body', [
          {
            path: 'Idempotency-Key',
            code: 'invalid_value',
            message: 'the key is reused only to retry the same body; send a new key for a new job',
          },
        ]);
      case 'stale': {
        const outcome = await settleStaleClaim(ports.store, stream, verdict.jobId, now, serviceActor('admission'));
        ports.log.warn(
          { jobId: verdict.jobId, outcome },
          'settled an Idempotency-Key claim left pending by a request that stopped',
        );
        continue;
      }
      case 'wait': {
        const left = waitUntil - Date.now();
        if (left <= 0) {
          throw new DomainError(
            'idempotency_key_pending',
            `a request with this Idempotency-Key is still creating job ${verdict.jobId}; retry with the same key to get it`,
            undefined,
            { retryAfterSeconds: PENDING_RETRY_AFTER_S },
          );
        }
        await claimMoved(ports, stream, Math.min(left, CLAIM_POLL_MS));
        continue;
      }
      case 'claim':
        continue; // not reached: ClaimKey claims on the very state it judged
    }
  }
}

/** Longest wait for this process's read models to show a replayed job, ms (they follow the log within milliseconds). */
const REPLAY_READ_WAIT_MS = 10_000;

/** Retry-After of a `503 idempotency_key_pending`, s: the claim's request usually ends within it. */
const PENDING_RETRY_AFTER_S = 1;

/** Longest time between two looks at a pending claim, ms (a claim moving wakes the waiter at once in this process). */
const CLAIM_POLL_MS = 100;

/**
 * The rest of an admission whose claim on `stream` is ours: admit and queue job `jobId`, then
 * complete the claim; on a refusal or failure release the claim and rethrow. Resolves null when
 * the job was voided (the claim was taken over while this request stalled).
 */
async function createClaimedJob(
  ports: AdmissionPorts,
  creator: JobCreator,
  job: NewJob,
  stream: string,
  jobId: string,
): Promise<CreatedJob | null> {
  const actor = creator.actor;
  let queued: Awaited<ReturnType<typeof admitAndQueue>>;
  try {
    queued = await admitAndQueue(ports, creator, job, jobId);
  } catch (err) {
    if (err instanceof DomainError) {
      // Refused (402, 429) before anything was held: the next request with the key claims anew.
      await handleCommand(ports.store, stream, claimDecider, {
        type: 'ReleaseClaim',
        data: { jobId, reason: 'refused' },
        metadata: { now: ports.clock(), actor },
      }).catch((release: unknown) =>
        ports.log.error(
          { jobId, err: release },
          'Idempotency-Key claim not released; a retry settles it once it is stale',
        ),
      );
      throw err;
    }
    // Failed half way: the claim ends as its job's stream says (queued: completed, and this is
    // the answer; else released). When the store cannot say now, the claim stays pending until stale.
    const settled = await settleStaleClaim(ports.store, stream, jobId, ports.clock(), actor, 'failed').catch(
      (settle: unknown) => {
        ports.log.error(
          { jobId, err: settle },
          'Idempotency-Key claim not settled; a retry or the repair tick settles it once it is stale',
        );
        return 'unknown' as const;
      },
    );
    if (settled === 'completed') return { jobId, replayed: false, position: await ports.store.headPosition() };
    throw err;
  }
  if (queued === 'voided') return null;
  // The job is queued and charged: the answer is the job even when the claim cannot be completed
  // now (a stale claim is completed by whoever settles it, since its job is queued).
  await handleCommand(ports.store, stream, claimDecider, {
    type: 'CompleteClaim',
    data: { jobId },
    metadata: { now: ports.clock(), actor },
  }).catch((complete: unknown) =>
    ports.log.error(
      { jobId, err: complete },
      'Idempotency-Key claim not completed; the repair tick completes it once it is stale',
    ),
  );
  return { jobId, replayed: false, position: queued.position, funds: queued.funds };
}
