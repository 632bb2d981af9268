/**
 * Store steps of the solver node, retried through an outage of the event store (DESIGN §4.3:
 * infrastructure errors are not attempts). A node that cannot read a job or store its outcome
 * keeps the solve command (`working()` goes on) and tries the step again after a capped, doubling
 * wait, until it succeeds or the node closes; the delivery count of the message, which bounds the
 * attempts of a job (node.ts MAX_SOLVE_ATTEMPTS), is not touched. The log gets one line when the
 * store starts failing and one when it answers again, however many steps and retries fell between.
 * What counts as a store failure (and not an answer about the job, which goes back to the bus as a
 * failed attempt) is domain/ports/store-unavailable.ts `isStoreFailure`.
 */
import type { Logger } from 'pino';
import { backoffDelay, pause } from '../../domain/log/backoff.js';
import { isStoreFailure } from '../../domain/ports/store-unavailable.js';

/** First wait before a failed store step is tried again, ms. */
export const STORE_RETRY_MIN_MS = 250;
/** Longest wait between two tries of a store step, ms. */
export const STORE_RETRY_MAX_MS = 5000;

/** Thrown by {@link StoreRetry.run} when the node closes before the step succeeded: the caller hands the message back. */
export class NodeClosing extends Error {
  constructor() {
    super('the solver node is closing');
    this.name = 'NodeClosing';
  }
}

/** Backoff of {@link StoreRetry}, ms. */
export interface StoreRetryBackoff {
  minMs: number;
  maxMs: number;
}

/** The current failure streak of the store as this node sees it. */
interface Outage {
  since: number;
  failures: number;
  jobs: Set<string>;
}

export class StoreRetry {
  private outage: Outage | undefined;

  /** `stopped`: aborted when the node closes (a waiting retry then ends at once). */
  constructor(
    private readonly log: Logger,
    private readonly stopped: AbortSignal,
    private readonly backoff: StoreRetryBackoff = { minMs: STORE_RETRY_MIN_MS, maxMs: STORE_RETRY_MAX_MS },
  ) {}

  /**
   * Runs `work` (a store step of job `jobId`, named `step` in the log) until it resolves, waiting
   * 250 ms doubling to 5 s between tries while it fails with an infrastructure error. Rethrows
   * any other error at once; throws NodeClosing when the node closes first.
   */
  async run<T>(step: string, jobId: string, work: () => Promise<T>): Promise<T> {
    for (let failures = 0; ;) {
      if (this.stopped.aborted) throw new NodeClosing();
      try {
        const result = await work();
        this.answered();
        return result;
      } catch (err) {
        if (!isStoreFailure(err)) throw err;
        this.failed(step, jobId, err);
        failures += 1;
        await pause(backoffDelay(failures, this.backoff.minMs, this.backoff.maxMs), this.stopped);
      }
    }
  }

  /** Notes a store call of job `jobId` that failed (logged only when it starts a streak). */
  failed(step: string, jobId: string, err: unknown): void {
    if (this.outage) {
      this.outage.failures += 1;
      this.outage.jobs.add(jobId);
      return;
    }
    this.outage = { since: Date.now(), failures: 1, jobs: new Set([jobId]) };
    this.log.error({ err, step, jobId }, 'event store unavailable: the solver keeps its solve commands and retries');
  }

  /** Notes a store call that succeeded: ends the failure streak (one line in the log). */
  answered(): void {
    if (!this.outage) return;
    const { since, failures, jobs } = this.outage;
    this.outage = undefined;
    this.log.info(
      { outageMs: Date.now() - since, failures, jobs: jobs.size },
      'event store available again: the solver goes on',
    );
  }
}
