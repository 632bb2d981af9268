/**
 * The solver node: consumes solve commands from the bus, lets up to `concurrency` jobs compute at
 * once (taken in a fair order across organizations, compute-slots.ts), runs the parallel search
 * on worker threads for each, checks the plan with the independent verifier, and stores the
 * outcome as events (DESIGN §4.3). Its parts:
 * - held-message.ts: each message held until it is settled (ack, `nak`, `term`), kept alive with
 *   `working()`, its attempts counted (MAX_SOLVE_ATTEMPTS), its wait for a compute slot;
 * - job-run.ts: the run of a job holding a slot (search, verification, outcome);
 * - job-records.ts: what the node records on the job's stream;
 * - cancellation.ts: the job-ended signal and its fallback poll, which stop a search or a wait;
 * - store-retry.ts: store outages waited out with the message held (they are not attempts).
 */
import type { Logger } from 'pino';
import { SOLVE_SUBJECT, type SolveMessage } from '../../domain/job/process.js';
import type { Bus, BusConsumer } from '../../domain/ports/bus.js';
import type { EventStore } from '../../domain/ports/event-store.js';
import type { Solver } from '../../solver/solve.js';
import { CancellationWatch } from './cancellation.js';
import { ComputeSlots } from './compute-slots.js';
import { holdMessage, type IntakeParts } from './held-message.js';
import { StoreRetry, type StoreRetryBackoff } from './store-retry.js';

export { END_POLL_MS } from './cancellation.js';
export { KEEP_ALIVE_MS, MAX_SOLVE_ATTEMPTS } from './held-message.js';

/**
 * Default jobs computing at once on one node (SOLVER_CONCURRENCY): three, so that a short job
 * starts at once even while two organizations run long jobs; each has its own worker threads.
 */
export const DEFAULT_SOLVER_CONCURRENCY = 3;

/** Prefetch with the in-process bus: every waiting job sits in the node's fair queue. */
export const IN_PROCESS_PREFETCH = 10_000;

/** What a solver node is made of: its ports, its search and its sizes. */
export interface SolverNodeDeps {
  store: EventStore;
  bus: Bus;
  /** The search (solve.ts); tests pass a stand-in. */
  solver: Pick<Solver, 'warm' | 'solve'>;
  clock: () => string;
  log: Logger;
  /** Jobs computing at once on this node (SOLVER_CONCURRENCY); size the Solver's pool for as many (solve.ts). */
  concurrency: number;
  /**
   * Solve commands this node takes from the bus beyond its compute slots, to wait in its fair
   * queue (compute-slots.ts). The in-process bus: as many as there are (the node holds the
   * queue). NATS: a few, each kept alive with `working()` while it waits (so the ack wait never
   * gives it to another node), handed back at once (`nak(0)`) when the node closes; a node killed
   * meanwhile loses them to another node after the ack wait. Default 0 (first come, first served).
   */
  prefetch?: number;
  /** Waits between tries of a failed store step (default 250 ms doubling to 5 s, store-retry.ts). */
  storeRetry?: StoreRetryBackoff;
  /** Period of the fallback poll of a computing job's state, ms (default END_POLL_MS). */
  endPollMs?: number;
}

/** A solver node: start() consumes solve commands, close() hands back what it holds. */
export class SolverNode {
  private consumer: BusConsumer | undefined;
  private stopListening: (() => void) | undefined;
  private readonly slots: ComputeSlots;
  private readonly cancellation: CancellationWatch;
  private readonly parts: IntakeParts;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly stopping = new AbortController();
  private starting: Promise<void> = Promise.resolve();

  constructor(private readonly deps: SolverNodeDeps) {
    const { store, solver, clock, log } = deps;
    this.slots = new ComputeSlots(Math.max(1, Math.floor(deps.concurrency)));
    const retry = new StoreRetry(log, this.stopping.signal, deps.storeRetry);
    this.cancellation = new CancellationWatch(store, retry, deps.endPollMs);
    this.parts = {
      store,
      retry,
      clock,
      log,
      solver,
      cancellation: this.cancellation,
      stopping: this.stopping.signal,
      slots: this.slots,
    };
  }

  /** Jobs computing and jobs waiting for a compute slot on this node now (for metrics and logs). */
  load(): { computing: number; waiting: number } {
    return { computing: this.slots.inUse, waiting: this.slots.waitingJobs };
  }

  /**
   * Warms the solver's threads, then consumes solve commands (a job waits on the bus rather than
   * spend its budget on a cold start). Resolves when consuming has begun, or at once when closed
   * meanwhile.
   */
  start(): Promise<void> {
    this.starting = this.deps.solver.warm().then(() => {
      if (!this.stopping.signal.aborted) this.consume();
    });
    return this.starting;
  }

  private consume(): void {
    this.stopListening = this.cancellation.listen(this.deps.bus);
    this.consumer = this.deps.bus.consume<SolveMessage>(
      SOLVE_SUBJECT,
      (msg) => {
        const handling = holdMessage(this.parts, msg);
        this.inFlight.add(handling);
        return handling.finally(() => this.inFlight.delete(handling));
      },
      this.slots.size + Math.max(0, Math.floor(this.deps.prefetch ?? 0)),
    );
  }

  /**
   * Cancellation: aborts the search of `jobId` if this node runs it, and drops its message
   * (acked) if it waits here for a compute slot, so a prefetched job that ended takes no slot.
   */
  abort(jobId: string, reason = 'aborted'): void {
    this.cancellation.abort(jobId, reason);
  }

  /**
   * Stops (SIGTERM): takes no new message, hands back the messages waiting for a compute slot or
   * for the store (`nak(0)`), aborts running searches without recording an outcome and hands
   * their messages back (`nak(0)`), so another node starts them at once; resolves when every
   * handler has settled its message.
   */
  async close(): Promise<void> {
    this.stopping.abort();
    this.slots.close();
    this.stopListening?.();
    await this.starting;
    this.cancellation.abortSearches('node closing');
    await this.consumer?.close();
    this.cancellation.abortSearches('node closing');
    await Promise.allSettled([...this.inFlight]);
  }
}
