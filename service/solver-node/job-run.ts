/**
 * The run of one job on a solver node, once its message holds a compute slot: reads the stored
 * request, records the start of compute, runs the parallel search on worker threads (solve.ts),
 * checks the plan with the independent verifier and records the outcome (DESIGN §4.3). A run
 * stopped by the node's shutdown records nothing and throws NodeClosing, so its message is handed
 * back.
 */
import type { BusMessage } from '../../domain/ports/bus.js';
import { readJobBody } from '../../domain/job/body.js';
import type { JobState } from '../../domain/job/job.js';
import type { SolveMessage } from '../../domain/job/process.js';
import type { PackModel } from '../../domain/pack/plan.js';
import type { Solver, SolveOutcome } from '../../solver/solve.js';
import { verifyPlan } from '../../solver/verify/verify.js';
import { JOB_ENDED, type CancellationWatch } from './cancellation.js';
import { failJob, progressReporter, recordComputeStart, recordSuccess, type JobRecorder } from './job-records.js';
import { NodeClosing } from './store-retry.js';

/** What a job run uses of its node. */
export interface JobRunParts extends JobRecorder {
  /** The search (solve.ts); tests pass a stand-in. */
  solver: Pick<Solver, 'solve'>;
  cancellation: CancellationWatch;
  /** Aborted when the node closes. */
  stopping: AbortSignal;
}

/**
 * Runs the search of a running job (`state`, as read when its message was taken) and records its
 * outcome, then acks `msg`. Throws NodeClosing when the node closes first (nothing recorded).
 */
export async function runJob(parts: JobRunParts, msg: BusMessage<SolveMessage>, state: JobState): Promise<void> {
  const { jobId } = msg.data;
  const { store, solver, log, cancellation, stopping } = parts;
  if (stopping.aborted) throw new NodeClosing();
  const stored = (await parts.retry.run('reading the job request', jobId, () => readJobBody(store, jobId))).request;
  if (!stored) {
    await failJob(parts, jobId, 0, 'engine_failed', 'the job request was not found');
    msg.ack();
    return;
  }
  const queued = state.queued!;
  const model = { ...stored.model, maxVehicles: queued.maxVehicles, budgetMs: queued.budgetMs };
  const controller = cancellation.searchStarts(jobId);
  try {
    const started = await recordComputeStart(parts, jobId);
    if (!started || controller.signal.aborted) {
      // It ended meanwhile (canceled, or failed queue_timeout while waiting for this slot).
      if (stopping.aborted) throw new NodeClosing();
      msg.ack();
      return;
    }
    log.info({ jobId, attempt: msg.attempt, budgetMs: queued.budgetMs, units: queued.items }, 'computing');
    // The job-ended signal aborts the search at once (cancellation.ts); this slow poll is its fallback.
    const stopPolling = cancellation.pollEnd(jobId, controller);
    let outcome: SolveOutcome;
    try {
      outcome = await solver.solve(model, { signal: controller.signal, onProgress: progressReporter(parts, jobId) });
    } finally {
      stopPolling();
    }
    if (stopping.aborted) {
      // Stopped by a shutdown, not by the customer: record nothing. The job is still running in
      // the log; start-up repair fails it with server_restarted (not charged), or another
      // node gets the message again.
      throw new NodeClosing();
    }
    await recordOutcome(parts, jobId, model, outcome, controller.signal);
    msg.ack();
  } finally {
    cancellation.searchEnds(jobId);
  }
}

/**
 * Records the outcome of a search: a solved plan the verifier accepts as the result, anything
 * else as the job's failure. A search aborted because the job ended elsewhere records nothing
 * new: its FailJob is a no-op on the ended job.
 */
async function recordOutcome(
  parts: JobRunParts,
  jobId: string,
  model: PackModel,
  outcome: SolveOutcome,
  signal: AbortSignal,
): Promise<void> {
  const { log } = parts;
  if (outcome.status === 'solved') {
    // The oracle, once more at the boundary: no plan is stored that the verifier rejects.
    const violations = verifyPlan(model, outcome.plan);
    if (violations.length > 0) {
      log.error({ jobId, violations: violations.slice(0, 10) }, 'plan failed verification');
      await failJob(
        parts,
        jobId,
        outcome.computeMs,
        'engine_failed',
        'the packing engine produced a plan that failed verification',
      );
      return;
    }
    await recordSuccess(parts, jobId, outcome);
    log.info({ jobId, computeMs: outcome.computeMs, strategy: outcome.strategy }, 'job solved');
  } else if (outcome.status === 'timedout') {
    await failJob(
      parts,
      jobId,
      outcome.computeMs,
      'time_limit_exceeded',
      'the compute budget ran out before any vehicle was packed',
    );
  } else if (outcome.status === 'canceled') {
    if (signal.reason === JOB_ENDED)
      log.info({ jobId, computeMs: outcome.computeMs }, 'search stopped: the job ended elsewhere');
    await failJob(parts, jobId, outcome.computeMs, 'canceled', 'the job was canceled');
  } else {
    log.error({ jobId, err: outcome.error }, 'packing engine failed');
    await failJob(parts, jobId, outcome.computeMs, 'engine_failed', 'the packing engine failed');
  }
}
