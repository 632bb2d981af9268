/**
 * The solver node: consumes solve commands from the bus, lets up to `concurrency` jobs compute at
 * once (taken in a fair order across organizations, compute-slots.ts), runs the parallel search
 * on worker threads for each, checks the plan with the independent verifier, and stores the
 * outcome as events (DESIGN §4.3). Every message is settled explicitly: acked when the job's
 * outcome is stored (or the job is no longer running), handed back (`nak(0)`) when the node
 * closes. While it holds a message (waiting for a slot, computing, or waiting out a store outage)
 * the node tells the bus so every second (`working()`), so the ack wait never runs out on it.
 *
 * Infrastructure errors are not attempts: a store that cannot be read or written is waited out
 * with the message held (store-retry.ts); only a failure of the job itself (a node killed
 * mid-search, so the bus redelivers) counts toward MAX_SOLVE_ATTEMPTS.
 *
 * Cancellation: the node stops a search when it hears the job-ended signal on the bus (sent by
 * the scheduler when a job ends, domain/job/process.ts); a slow poll of the job's state (every
 * END_POLL_MS) catches a signal lost while the bus was away.
 */
import type { Logger } from 'pino';
import { serviceActor } from '../../domain/decider/actor.js';
import type { CommandMetadata } from '../../domain/decider/decider.js';
import { handleCommand, loadState } from '../../domain/decider/handle.js';
import { jobDecider } from '../../domain/job/decide.js';
import { readJobBody, storeJobResult } from '../../domain/job/body.js';
import type { JobEvent, JobState } from '../../domain/job/job.js';
import { JOB_ENDED_SIGNAL, SOLVE_SUBJECT, type JobEndedSignal, type SolveMessage } from '../../domain/job/process.js';
import { jobStream } from '../../domain/job/streams.js';
import type { Bus, BusConsumer, BusMessage } from '../../domain/ports/bus.js';
import type { EventStore } from '../../domain/ports/event-store.js';
import { verifyPlan } from '../../solver/verify/verify.js';
import type { Solver } from '../../solver/solve.js';
import { NodeClosing, StoreRetry, type StoreRetryBackoff } from './store-retry.js';
import { isStoreFailure } from '../../domain/ports/store-unavailable.js';
import { summarizePlan } from '../../solver/summary.js';
import { ComputeSlots, ComputeSlotsClosed, SlotWaitAborted, type ReleaseSlot } from './compute-slots.js';

/**
 * Deliveries of one solve command before the node gives up on it (STYLE: never re-queue forever):
 * the job then fails with `engine_failed` (not charged) and the message is terminated. A node
 * killed mid-search costs one delivery; a store outage costs none (the node holds the message and
 * retries, store-retry.ts).
 */
export const MAX_SOLVE_ATTEMPTS = 5;

const SOLVER = serviceActor('solver');

/**
 * Default jobs computing at once on one node (SOLVER_CONCURRENCY): three, so that a short job
 * starts at once even while two organizations run long jobs; each has its own worker threads.
 */
export const DEFAULT_SOLVER_CONCURRENCY = 3;

/** Prefetch with the in-process bus: every waiting job sits in the node's fair queue. */
export const IN_PROCESS_PREFETCH = 10_000;

/** How often the node tells the bus it still holds a message (`working()`), ms: well inside any ack wait. */
export const KEEP_ALIVE_MS = 1000;

/**
 * How often a computing job's state is read to notice that it ended elsewhere, ms: the fallback of
 * the job-ended signal, for a signal lost while the bus was away (4 reads a minute per computing
 * job instead of 60 with a poll every second).
 */
export const END_POLL_MS = 15_000;

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

export class SolverNode {
  private consumer: BusConsumer | undefined;
  private stopListening: (() => void) | undefined;
  private readonly slots: ComputeSlots;
  private readonly running = new Map<string, AbortController>();
  /** Jobs whose messages wait for a compute slot; aborting one gives up the wait. */
  private readonly waiting = new Map<string, AbortController>();
  private readonly inFlight = new Set<Promise<void>>();
  private readonly stopping = new AbortController();
  private readonly retry: StoreRetry;
  private closing = false;
  private starting: Promise<void> = Promise.resolve();

  constructor(private readonly deps: SolverNodeDeps) {
    this.slots = new ComputeSlots(Math.max(1, Math.floor(deps.concurrency)));
    this.retry = new StoreRetry(deps.log, this.stopping.signal, deps.storeRetry);
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
      if (!this.closing) this.consume();
    });
    return this.starting;
  }

  private consume(): void {
    this.stopListening = this.deps.bus.onSignal<JobEndedSignal>(JOB_ENDED_SIGNAL, ({ jobId }) =>
      this.abort(jobId, 'job ended'),
    );
    this.consumer = this.deps.bus.consume<SolveMessage>(
      SOLVE_SUBJECT,
      (msg) => {
        const handling = this.handle(msg);
        this.inFlight.add(handling);
        return handling.finally(() => this.inFlight.delete(handling));
      },
      this.slots.size + Math.max(0, Math.floor(this.deps.prefetch ?? 0)),
    );
  }

  /** Metadata of a command this node issues now. */
  private metadata(): CommandMetadata {
    return { now: this.deps.clock(), actor: SOLVER };
  }

  /**
   * Cancellation: aborts the search of `jobId` if this node runs it, and drops its message
   * (acked) if it waits here for a compute slot, so a prefetched job that ended takes no slot.
   */
  abort(jobId: string, reason = 'aborted'): void {
    this.running.get(jobId)?.abort(reason);
    this.waiting.get(jobId)?.abort(reason);
  }

  /**
   * Holds `msg` until it is settled: `working()` every KEEP_ALIVE_MS whatever the node waits for
   * (a compute slot, the search, the store), `nak(0)` when the node closes first. Errors that are
   * not the store's (a decider's refusal, a conflict that outlasted its retries) hand the message
   * back after a second and so count as an attempt.
   */
  private async handle(msg: BusMessage<SolveMessage>): Promise<void> {
    const { jobId } = msg.data;
    if (this.closing) {
      msg.nak(0);
      return;
    }
    const keepAlive = setInterval(() => msg.working(), KEEP_ALIVE_MS);
    try {
      await this.take(msg);
    } catch (err) {
      if (err instanceof NodeClosing || err instanceof ComputeSlotsClosed) {
        msg.nak(0);
        return;
      }
      this.deps.log.error(
        { jobId, err, attempt: msg.attempt },
        'handling the solve command failed; it is delivered again',
      );
      msg.nak(1000);
    } finally {
      clearInterval(keepAlive);
    }
  }

  /** Reads the job, gives up on one delivered too often, else waits for a compute slot and computes. */
  private async take(msg: BusMessage<SolveMessage>): Promise<void> {
    const { jobId } = msg.data;
    const { store, log } = this.deps;
    const { state } = await this.retry.run('reading the job', jobId, () =>
      loadState<JobState, JobEvent>(store, jobStream(jobId), jobDecider),
    );
    if (state.status !== 'running') {
      msg.ack();
      return;
    }
    if (msg.attempt > MAX_SOLVE_ATTEMPTS) {
      log.error({ jobId, attempt: msg.attempt }, 'solve command delivered too often; the job fails with engine_failed');
      await this.fail(
        jobId,
        0,
        'engine_failed',
        `the packing engine could not finish the job in ${MAX_SOLVE_ATTEMPTS} attempts; nothing was charged for compute`,
      );
      msg.term(`gave up after ${MAX_SOLVE_ATTEMPTS} attempts`);
      return;
    }
    // Wait for a compute slot in the fair order (rejects with ComputeSlotsClosed on close).
    const wait = new AbortController();
    this.waiting.set(jobId, wait);
    let release: ReleaseSlot;
    try {
      release = await this.slots.acquire(state.queued!.orgId, wait.signal);
    } catch (err) {
      if (!(err instanceof SlotWaitAborted)) throw err;
      log.info({ jobId }, 'solve command dropped: the job ended while it waited for a compute slot');
      msg.ack();
      return;
    } finally {
      if (this.waiting.get(jobId) === wait) this.waiting.delete(jobId);
    }
    try {
      await this.compute(msg, state);
    } finally {
      release();
    }
  }

  /** Runs the search of a running job that holds a compute slot, and stores its outcome. */
  private async compute(msg: BusMessage<SolveMessage>, state: JobState): Promise<void> {
    const { jobId } = msg.data;
    const { store, solver, log } = this.deps;
    if (this.closing) throw new NodeClosing();
    const stored = (await this.retry.run('reading the job request', jobId, () => readJobBody(store, jobId))).request;
    if (!stored) {
      await this.fail(jobId, 0, 'engine_failed', 'the job request was not found');
      msg.ack();
      return;
    }
    const queued = state.queued!;
    const model = { ...stored.model, maxVehicles: queued.maxVehicles, budgetMs: queued.budgetMs };
    const controller = new AbortController();
    this.running.set(jobId, controller);
    try {
      // The moment compute starts (a cancel bills compute from here, not from the slot's start).
      const { events } = await this.retry.run('recording the start of compute', jobId, () =>
        handleCommand(store, jobStream(jobId), jobDecider, {
          type: 'ReportProgress',
          data: { jobId, stage: 'computing', vehiclesDone: 0, placedItems: 0 },
          metadata: this.metadata(),
        }),
      );
      if (events.length === 0 || controller.signal.aborted) {
        // It ended meanwhile (canceled, or failed queue_timeout while waiting for this slot).
        if (this.closing) throw new NodeClosing();
        msg.ack();
        return;
      }
      log.info({ jobId, attempt: msg.attempt, budgetMs: queued.budgetMs, units: queued.items }, 'computing');
      // The job-ended signal aborts the search at once (consume()); this slow poll is its fallback.
      const poll = setInterval(() => this.stopIfEnded(jobId, controller), this.deps.endPollMs ?? END_POLL_MS);
      let outcome: Awaited<ReturnType<Solver['solve']>>;
      try {
        outcome = await solver.solve(model, { signal: controller.signal, onProgress: this.progressReporter(jobId) });
      } finally {
        clearInterval(poll);
      }
      if (this.closing) {
        // Stopped by a shutdown, not by the customer: record nothing. The job is still running in
        // the log; start-up repair fails it with server_restarted (not charged), or another
        // node gets the message again.
        throw new NodeClosing();
      }
      await this.storeOutcome(jobId, model, outcome, controller.signal);
      msg.ack();
    } finally {
      this.running.delete(jobId);
    }
  }

  /**
   * Stores the outcome of a search, each step retried through a store outage (a finished search
   * is never redone because the store blipped). A search aborted because the job ended elsewhere
   * records nothing new: its FailJob is a no-op on the ended job.
   */
  private async storeOutcome(
    jobId: string,
    model: Parameters<Solver['solve']>[0],
    outcome: Awaited<ReturnType<Solver['solve']>>,
    signal: AbortSignal,
  ): Promise<void> {
    const { store, log } = this.deps;
    if (outcome.status === 'solved') {
      // The oracle, once more at the boundary: no plan is stored that the verifier rejects.
      const violations = verifyPlan(model, outcome.plan);
      if (violations.length > 0) {
        log.error({ jobId, violations: violations.slice(0, 10) }, 'plan failed verification');
        await this.fail(
          jobId,
          outcome.computeMs,
          'engine_failed',
          'the packing engine produced a plan that failed verification',
        );
        return;
      }
      await this.retry.run('storing the result', jobId, () =>
        storeJobResult(store, jobId, { plan: outcome.plan, warnings: [], strategy: outcome.strategy }),
      );
      await this.retry.run('recording the success', jobId, () =>
        handleCommand(store, jobStream(jobId), jobDecider, {
          type: 'SucceedJob',
          data: { jobId, computeMs: outcome.computeMs, summary: summarizePlan(outcome.plan), warnings: [] },
          metadata: this.metadata(),
        }),
      );
      log.info({ jobId, computeMs: outcome.computeMs, strategy: outcome.strategy }, 'job solved');
    } else if (outcome.status === 'timedout') {
      await this.fail(
        jobId,
        outcome.computeMs,
        'time_limit_exceeded',
        'the compute budget ran out before any vehicle was packed',
      );
    } else if (outcome.status === 'canceled') {
      if (signal.reason === 'job ended')
        log.info({ jobId, computeMs: outcome.computeMs }, 'search stopped: the job ended elsewhere');
      await this.fail(jobId, outcome.computeMs, 'canceled', 'the job was canceled');
    } else {
      log.error({ jobId, err: outcome.error }, 'packing engine failed');
      await this.fail(jobId, outcome.computeMs, 'engine_failed', 'the packing engine failed');
    }
  }

  /** Fallback of the job-ended signal: reads the job once and aborts its search when it ended (a failed read waits for the next poll). */
  private stopIfEnded(jobId: string, controller: AbortController): void {
    void loadState<JobState, JobEvent>(this.deps.store, jobStream(jobId), jobDecider).then(
      ({ state }) => {
        this.retry.answered();
        if (state.status !== 'running') controller.abort('job ended');
      },
      (err: unknown) => {
        if (isStoreFailure(err)) this.retry.failed('checking whether the job ended', jobId, err);
      },
    );
  }

  /**
   * Progress as JobProgressed events, at most one a second (and only when it changed), so a
   * long search does not flood the log.
   */
  private progressReporter(jobId: string): (p: { stage: string; vehiclesDone: number; placedItems: number }) => void {
    let last = 0;
    let lastKey = '';
    return (p) => {
      const key = `${p.stage}/${p.vehiclesDone}/${p.placedItems}`;
      const now = Date.now();
      if (key === lastKey || now - last < 1000) return;
      last = now;
      lastKey = key;
      void handleCommand(this.deps.store, jobStream(jobId), jobDecider, {
        type: 'ReportProgress',
        data: { jobId, ...p },
        metadata: this.metadata(),
      }).then(
        () => this.retry.answered(),
        (err: unknown) => {
          // A store outage is logged once for all its failures (store-retry.ts); a lost report is not retried.
          if (isStoreFailure(err)) this.retry.failed('recording progress', jobId, err);
          else this.deps.log.warn({ jobId, err }, 'progress not recorded');
        },
      );
    };
  }

  /** Fails the job (a no-op when it has ended), retried through a store outage; throws NodeClosing when the node closes first. */
  private async fail(
    jobId: string,
    computeMs: number,
    code: 'engine_failed' | 'time_limit_exceeded' | 'canceled',
    message: string,
  ): Promise<void> {
    await this.retry.run('recording the failure', jobId, () =>
      handleCommand(this.deps.store, jobStream(jobId), jobDecider, {
        type: 'FailJob',
        data: { jobId, computeMs, code, message },
        metadata: this.metadata(),
      }),
    );
  }

  /**
   * Stops (SIGTERM): takes no new message, hands back the messages waiting for a compute slot or
   * for the store (`nak(0)`), aborts running searches without recording an outcome and hands
   * their messages back (`nak(0)`), so another node starts them at once; resolves when every
   * handler has settled its message.
   */
  async close(): Promise<void> {
    this.closing = true;
    this.stopping.abort();
    this.slots.close();
    this.stopListening?.();
    await this.starting;
    for (const c of this.running.values()) c.abort('node closing');
    await this.consumer?.close();
    for (const c of this.running.values()) c.abort('node closing');
    await Promise.allSettled([...this.inFlight]);
  }
}
