/**
 * The solver node: consumes solve commands from the bus, lets up to `concurrency` jobs compute at
 * once (taken in a fair order across organizations, compute-slots.ts), runs the parallel search
 * on worker threads for each, checks the plan with the independent verifier, and stores the
 * outcome as events (DESIGN §4.3). Every message is settled explicitly: acked when the job's
 * outcome is stored (or the job is no longer running), nakked when storing failed.
 */
import type { Logger } from 'pino';
import { serviceActor } from '../domain/decider/actor.js';
import type { CommandMetadata } from '../domain/decider/decider.js';
import { handleCommand, loadState } from '../domain/decider/handle.js';
import { jobDecider } from '../domain/job/decide.js';
import { readJobBody, storeJobResult } from '../domain/job/body.js';
import type { JobEvent, JobState } from '../domain/job/job.js';
import { SOLVE_SUBJECT, type SolveMessage } from '../domain/job/process.js';
import { jobStream } from '../domain/job/streams.js';
import type { Bus, BusConsumer, BusMessage } from '../domain/ports/bus.js';
import type { EventStore } from '../domain/ports/event-store.js';
import { verifyPlan } from './verify/verify.js';
import type { Solver } from './solve.js';
import { summarizePlan } from './summary.js';
import { ComputeSlots, ComputeSlotsClosed, type ReleaseSlot } from './compute-slots.js';

/**
 * Deliveries of one solve command before the node gives up on it (STYLE: never re-queue forever):
 * the job then fails with `engine_failed` (not charged) and the message is terminated. A node
 * killed mid-search costs one delivery; a store that keeps failing costs one each time.
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

export interface SolverNodeDeps {
  store: EventStore;
  bus: Bus;
  solver: Solver;
  clock: () => string;
  log: Logger;
  /** Jobs computing at once on this node (SOLVER_CONCURRENCY); size the Solver's pool for as many (solve.ts). */
  concurrency: number;
  /**
   * Solve commands this node takes from the bus beyond its compute slots, to wait in its fair
   * queue (compute-slots.ts). The in-process bus: as many as there are (the node holds the
   * queue). NATS: a few, each kept alive with `working()` while it waits; a node killed meanwhile
   * loses them to another node after the ack wait. Default 0 (first come, first served).
   */
  prefetch?: number;
}

export class SolverNode {
  private consumer: BusConsumer | undefined;
  private readonly slots: ComputeSlots;
  private readonly running = new Map<string, AbortController>();
  private readonly inFlight = new Set<Promise<void>>();
  private closing = false;
  private starting: Promise<void> = Promise.resolve();

  constructor(private readonly deps: SolverNodeDeps) {
    this.slots = new ComputeSlots(Math.max(1, Math.floor(deps.concurrency)));
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

  /** Aborts the search of `jobId` if this node runs it (cancellation). */
  abort(jobId: string): void {
    this.running.get(jobId)?.abort();
  }

  private async handle(msg: BusMessage<SolveMessage>): Promise<void> {
    const { jobId } = msg.data;
    const { store, solver, log } = this.deps;
    if (this.closing) {
      msg.nak(0);
      return;
    }
    let state: JobState;
    try {
      ({ state } = await loadState<JobState, JobEvent>(store, jobStream(jobId), jobDecider));
    } catch (err) {
      log.error({ jobId, err, attempt: msg.attempt }, 'reading the job failed; will retry');
      msg.nak(1000);
      return;
    }
    if (state.status !== 'running') {
      msg.ack();
      return;
    }
    if (msg.attempt > MAX_SOLVE_ATTEMPTS) {
      log.error({ jobId, attempt: msg.attempt }, 'solve command delivered too often; the job fails with engine_failed');
      try {
        await this.fail(jobId, 0, 'engine_failed', `the packing engine could not finish the job in ${MAX_SOLVE_ATTEMPTS} attempts; nothing was charged for compute`);
        msg.term(`gave up after ${MAX_SOLVE_ATTEMPTS} attempts`);
      } catch (err) {
        log.error({ jobId, err }, 'recording the failure failed; will retry');
        msg.nak(1000);
      }
      return;
    }
    // Wait for a compute slot in the fair order, telling the bus we still hold the message.
    let release: ReleaseSlot;
    const waiting = setInterval(() => msg.working(), 1000);
    try {
      release = await this.slots.acquire(state.queued!.orgId);
    } catch (err) {
      if (!(err instanceof ComputeSlotsClosed)) throw err;
      msg.nak(0);
      return;
    } finally {
      clearInterval(waiting);
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
    if (this.closing) {
      msg.nak(0);
      return;
    }
    const stored = (await readJobBody(store, jobId)).request;
    if (!stored) {
      await this.fail(jobId, 0, 'engine_failed', 'the job request was not found');
      msg.ack();
      return;
    }
    const queued = state.queued!;
    const model = { ...stored.model, maxVehicles: queued.maxVehicles, budgetMs: queued.budgetMs };
    const controller = new AbortController();
    this.running.set(jobId, controller);
    // The moment compute starts (a cancel bills compute from here, not from the slot's start).
    try {
      const { events } = await handleCommand(store, jobStream(jobId), jobDecider, {
        type: 'ReportProgress',
        data: { jobId, stage: 'computing', vehiclesDone: 0, placedItems: 0 },
        metadata: this.metadata(),
      });
      if (events.length === 0) {
        // It ended meanwhile (canceled, or failed queue_timeout while waiting for this slot).
        this.running.delete(jobId);
        msg.ack();
        return;
      }
    } catch (err) {
      this.running.delete(jobId);
      log.error({ jobId, err }, 'recording the start of compute failed; will retry');
      msg.nak(1000);
      return;
    }
    log.info({ jobId, attempt: msg.attempt, budgetMs: queued.budgetMs, units: queued.items }, 'computing');
    // Every second: tell the bus we are alive, and stop searching when the job ended elsewhere
    // (canceled through the API, possibly by another process): the log is the signal.
    const heartbeat = setInterval(() => {
      msg.working();
      void loadState<JobState, JobEvent>(store, jobStream(jobId), jobDecider).then(
        ({ state: now }) => {
          if (now.status !== 'running') controller.abort();
        },
        () => undefined,
      );
    }, 1000);
    try {
      const outcome = await solver.solve(model, { signal: controller.signal, onProgress: this.progressReporter(jobId) });
      if (this.closing) {
        // Stopped by a shutdown, not by the customer: record nothing. The job is still running in
        // the log; start-up repair fails it with server_restarted (not charged), or another
        // node gets the message again.
        msg.nak(0);
        return;
      }
      if (outcome.status === 'solved') {
        // The oracle, once more at the boundary: no plan is stored that the verifier rejects.
        const violations = verifyPlan(model, outcome.plan);
        if (violations.length > 0) {
          log.error({ jobId, violations: violations.slice(0, 10) }, 'plan failed verification');
          await this.fail(jobId, outcome.computeMs, 'engine_failed', 'the packing engine produced a plan that failed verification');
        } else {
          await storeJobResult(store, jobId, { plan: outcome.plan, warnings: [], strategy: outcome.strategy });
          await handleCommand(store, jobStream(jobId), jobDecider, {
            type: 'SucceedJob',
            data: { jobId, computeMs: outcome.computeMs, summary: summarizePlan(outcome.plan), warnings: [] },
            metadata: this.metadata(),
          });
          log.info({ jobId, computeMs: outcome.computeMs, strategy: outcome.strategy }, 'job solved');
        }
      } else if (outcome.status === 'timedout') {
        await this.fail(jobId, outcome.computeMs, 'time_limit_exceeded', 'the compute budget ran out before any vehicle was packed');
      } else if (outcome.status === 'canceled') {
        await this.fail(jobId, outcome.computeMs, 'canceled', 'the job was canceled');
      } else {
        log.error({ jobId, err: outcome.error }, 'packing engine failed');
        await this.fail(jobId, outcome.computeMs, 'engine_failed', 'the packing engine failed');
      }
      msg.ack();
    } catch (err) {
      log.error({ jobId, err }, 'storing the solve outcome failed; will retry');
      msg.nak(1000);
    } finally {
      clearInterval(heartbeat);
      this.running.delete(jobId);
    }
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
      void handleCommand(this.deps.store, jobStream(jobId), jobDecider, { type: 'ReportProgress', data: { jobId, ...p }, metadata: this.metadata() }).catch((err: unknown) =>
        this.deps.log.warn({ jobId, err }, 'progress not recorded'),
      );
    };
  }

  private async fail(jobId: string, computeMs: number, code: 'engine_failed' | 'time_limit_exceeded' | 'canceled', message: string): Promise<void> {
    await handleCommand(this.deps.store, jobStream(jobId), jobDecider, { type: 'FailJob', data: { jobId, computeMs, code, message }, metadata: this.metadata() });
  }

  /**
   * Stops (SIGTERM): takes no new message, hands back the messages waiting for a compute slot
   * (`nak(0)`), aborts running searches without recording an outcome
   * and hands their messages back (`nak(0)`), so another node starts them at once; resolves when
   * every handler has settled its message.
   */
  async close(): Promise<void> {
    this.closing = true;
    this.slots.close();
    await this.starting;
    for (const c of this.running.values()) c.abort();
    await this.consumer?.close();
    for (const c of this.running.values()) c.abort();
    await Promise.allSettled([...this.inFlight]);
  }
}
