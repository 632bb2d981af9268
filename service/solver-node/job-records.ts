/**
 * What a solver node records on a job's stream, as the `solver` actor: the start of compute,
 * progress, the result and success, or the failure. Every step but progress is retried through a
 * store outage (store-retry.ts), so a finished search is never redone because the store blipped;
 * each throws NodeClosing when the node closes first.
 */
import type { Logger } from 'pino';
import { serviceActor } from '../../domain/decider/actor.js';
import type { CommandMetadata } from '../../domain/decider/decider.js';
import { handleCommand } from '../../domain/decider/handle.js';
import { storeJobResult } from '../../domain/job/body.js';
import { jobDecider } from '../../domain/job/decide.js';
import { jobStream } from '../../domain/job/streams.js';
import type { StopReason } from '../../domain/job/job.js';
import type { Plan } from '../../domain/pack/plan.js';
import type { EventStore } from '../../domain/ports/event-store.js';
import { isStoreFailure } from '../../domain/ports/store-unavailable.js';
import type { SolveOptions } from '../../solver/solve.js';
import { summarizePlan } from '../../solver/summary.js';
import type { StoreRetry } from './store-retry.js';

const SOLVER = serviceActor('solver');

/** What recording on a job needs of its node. */
export interface JobRecorder {
  store: EventStore;
  /** The node's store retry (one per node: it logs an outage once). */
  retry: StoreRetry;
  /** Now, as an ISO 8601 timestamp (the commands' metadata). */
  clock: () => string;
  log: Logger;
}

/** The failure codes a solver node gives a job (spec "Error codes"). */
export type SolverFailureCode = 'engine_failed' | 'time_limit_exceeded' | 'canceled';

/** Metadata of a command the node issues now. */
function metadata(recorder: JobRecorder): CommandMetadata {
  return { now: recorder.clock(), actor: SOLVER };
}

/**
 * Records the moment compute starts (a cancel bills compute from here, not from the slot's
 * start). Resolves false when the job is no longer running, so nothing was recorded.
 */
export async function recordComputeStart(recorder: JobRecorder, jobId: string): Promise<boolean> {
  const { events } = await recorder.retry.run('recording the start of compute', jobId, () =>
    handleCommand(recorder.store, jobStream(jobId), jobDecider, {
      type: 'ReportProgress',
      data: { jobId, stage: 'computing', vehiclesDone: 0, placedItems: 0 },
      metadata: metadata(recorder),
    }),
  );
  return events.length > 0;
}

/**
 * The search's progress callback for `jobId`: JobProgressed events, at most one a second (and
 * only when it changed), so a long search does not flood the log. A lost report is not retried.
 */
export function progressReporter(recorder: JobRecorder, jobId: string): NonNullable<SolveOptions['onProgress']> {
  let last = 0;
  let lastKey = '';
  return (p) => {
    const key = `${p.stage}/${p.vehiclesDone}/${p.placedItems}`;
    const now = Date.now();
    if (key === lastKey || now - last < 1000) return;
    last = now;
    lastKey = key;
    void handleCommand(recorder.store, jobStream(jobId), jobDecider, {
      type: 'ReportProgress',
      data: { jobId, ...p },
      metadata: metadata(recorder),
    }).then(
      () => recorder.retry.answered(),
      (err: unknown) => {
        // A store outage is logged once for all its failures (store-retry.ts).
        if (isStoreFailure(err)) recorder.retry.failed('recording progress', jobId, err);
        else recorder.log.warn({ jobId, err }, 'progress not recorded');
      },
    );
  };
}

/**
 * Stores a verified plan as the job's result, then records its success (`computeMs` of wall
 * time, the plan's summary, `strategy` for the log).
 */
export async function recordSuccess(
  recorder: JobRecorder,
  jobId: string,
  outcome: { plan: Plan; computeMs: number; strategy: string; stopReason: StopReason },
): Promise<void> {
  const { store, retry } = recorder;
  await retry.run('storing the result', jobId, () =>
    storeJobResult(store, jobId, { plan: outcome.plan, warnings: [], strategy: outcome.strategy }),
  );
  await retry.run('recording the success', jobId, () =>
    handleCommand(store, jobStream(jobId), jobDecider, {
      type: 'SucceedJob',
      data: {
        jobId,
        computeMs: outcome.computeMs,
        summary: summarizePlan(outcome.plan),
        warnings: [],
        stopReason: outcome.stopReason,
      },
      metadata: metadata(recorder),
    }),
  );
}

/** Fails the job with `code` after `computeMs` of compute (a no-op when it has ended). */
export async function failJob(
  recorder: JobRecorder,
  jobId: string,
  computeMs: number,
  code: SolverFailureCode,
  message: string,
): Promise<void> {
  await recorder.retry.run('recording the failure', jobId, () =>
    handleCommand(recorder.store, jobStream(jobId), jobDecider, {
      type: 'FailJob',
      data: { jobId, computeMs, code, message },
      metadata: metadata(recorder),
    }),
  );
}
