/**
 * The job process manager (DESIGN §3–4): reacts to stored events and drives the steps that
 * cross streams — start a job when its organization has a free compute slot, dispatch the solve
 * on the bus, settle the ledger when the job ends — and repairs half-done steps at start-up.
 * Every step it writes has a deterministic event id, so running a step twice writes it once.
 */
import { serviceActor } from '../decider/actor.js';
import type { CommandMetadata } from '../decider/decider.js';
import { batchDecider } from '../decider/batch.js';
import { handleCommand, loadState } from '../decider/handle.js';
import { jobDecider } from './decide.js';
import { isJobStream, jobStream } from './streams.js';
import type { JobEvent, JobState } from './job.js';
import { readJobBody } from './body.js';
import { ledgerDecider, type LedgerCommand } from '../ledger/decide.js';
import { isRunning } from '../ledger/ledger.js';
import { ledgerOrgId, ledgerStream } from '../ledger/streams.js';
import type { Bus } from '../ports/bus.js';
import type { EventStore, RecordedEvent } from '../ports/event-store.js';
import type { OrgLimits } from '../organization/limits.js';
import { abandonAdmission } from './abandon.js';

/**
 * Open jobs the start-up recovery fails at once (their appends share group commits: with 10,000
 * queued jobs 5 fsyncs instead of 40, and the read models apply them in full batches).
 */
export const RECOVERY_CONCURRENCY = 2048;

/** Settlements the start-up recovery writes in one ledger append (well under MAX_APPEND_BYTES). */
export const RECOVERY_SETTLE_BATCH = 500;

/** The SettleJob command of a job `state` that ended, or undefined while it is open (or unknown). */
export function settleCommandOf(jobId: string, state: JobState, metadata: CommandMetadata): LedgerCommand | undefined {
  const { queued, end } = state;
  if (!queued || !end) return undefined;
  return {
    type: 'SettleJob',
    data: {
      jobId,
      outcome: end.outcome,
      rateCardVersion: queued.rateCardVersion,
      vehicles: end.vehicles,
      computeMs: end.computeMs,
      units: queued.items,
      budgetMs: queued.budgetMs,
    },
    metadata,
  };
}

/** Bus subject of solve commands; the message id is the job id. */
export const SOLVE_SUBJECT = 'packing.solve';

export interface SolveMessage {
  jobId: string;
}

/**
 * Bus signal (domain/ports/bus.ts `signal`) sent when a job ended: the solver node computing it
 * stops its search at once (service/solver-node/cancellation.ts). A core subject outside the work-queue stream's
 * `packing.>`, so it is broadcast and never stored.
 */
export const JOB_ENDED_SIGNAL = 'signals.job-ended';

export interface JobEndedSignal {
  jobId: string;
}

export interface JobProcessDeps {
  store: EventStore;
  bus: Bus;
  /** RFC 3339 now. */
  clock: () => string;
  limitsOf(orgId: string): Promise<OrgLimits>;
}

/** The process manager's commands are the scheduler's. */
const SCHEDULER = serviceActor('scheduler');

export class JobProcess {
  constructor(private readonly deps: JobProcessDeps) {}

  /** Metadata of a command the scheduler issues now. */
  private metadata(): CommandMetadata {
    return { now: this.deps.clock(), actor: SCHEDULER };
  }

  /** Reacts to one stored event (called in log order). */
  async react(event: RecordedEvent): Promise<void> {
    const { stream, type } = event;
    const data = event.data as { jobId?: string; orgId?: string };
    const ledgerOrg = ledgerOrgId(stream);
    if (isJobStream(stream)) {
      if (type === 'JobQueued') {
        await this.startJobs(data.orgId!);
        // The slot may have been given between admission and JobQueued (by another job's
        // reaction), when the job stream did not exist yet: start the job stream now.
        const { state } = await loadState(this.deps.store, ledgerStream(data.orgId!), ledgerDecider);
        if (isRunning(state, data.jobId!)) {
          await handleCommand(this.deps.store, jobStream(data.jobId!), jobDecider, {
            type: 'StartJob',
            data: { jobId: data.jobId! },
            metadata: this.metadata(),
          });
        }
      } else if (type === 'JobStarted')
        await this.deps.bus.publish(SOLVE_SUBJECT, data.jobId!, { jobId: data.jobId! } satisfies SolveMessage);
      else if (type === 'JobSucceeded' || type === 'JobFailed') {
        await this.announceEnd(data.jobId!);
        await this.settle(data.jobId!);
      }
    } else if (ledgerOrg !== undefined) {
      const orgId = ledgerOrg;
      if (type === 'JobStarted')
        await handleCommand(this.deps.store, jobStream(data.jobId!), jobDecider, {
          type: 'StartJob',
          data: { jobId: data.jobId! },
          metadata: this.metadata(),
        });
      else if (type === 'JobSettled') await this.startJobs(orgId);
    }
  }

  /**
   * Tells the solver nodes that the job ended (canceled through the API, failed with
   * queue_timeout, or ended by another node), so the one computing it stops now. Fire and
   * forget: a signal lost while the bus is away is caught by the node's slow poll of the job.
   */
  private async announceEnd(jobId: string): Promise<void> {
    try {
      await this.deps.bus.signal(JOB_ENDED_SIGNAL, { jobId } satisfies JobEndedSignal);
    } catch {
      // Not delivered (the bus is closed or away): the settlement goes on regardless.
    }
  }

  /** Gives free compute slots of the organization to its oldest queued jobs. */
  async startJobs(orgId: string): Promise<void> {
    const { concurrency } = await this.deps.limitsOf(orgId);
    for (;;) {
      const { events } = await handleCommand(this.deps.store, ledgerStream(orgId), ledgerDecider, {
        type: 'StartNextJob',
        data: { concurrency },
        metadata: this.metadata(),
      });
      if (events.length === 0) return;
    }
  }

  /** Settles an ended job on its organization's ledger (exactly once: the ledger refuses a second). */
  async settle(jobId: string): Promise<void> {
    const { state } = await loadState<JobState, JobEvent>(this.deps.store, jobStream(jobId), jobDecider);
    const command = settleCommandOf(jobId, state, this.metadata());
    if (command) await handleCommand(this.deps.store, ledgerStream(state.queued!.orgId), ledgerDecider, command);
  }

  /**
   * Fails with `queue_timeout` (not charged) every waiting job created more than `timeoutMs`
   * before now (spec States: failed when it waited too long for a slot). Waiting means queued, or
   * holding its organization's slot while no solver has begun computing it (all solver slots busy):
   * the caller passes both; the decider ignores a job that began computing meanwhile. Returns how
   * many it failed; their settlement follows from the reaction to JobFailed.
   */
  async expireQueued(queued: { jobId: string; createdAt: string }[], timeoutMs: number): Promise<number> {
    const now = this.deps.clock();
    let expired = 0;
    for (const job of queued) {
      if (Date.parse(now) - Date.parse(job.createdAt) <= timeoutMs) continue;
      const { events } = await handleCommand(this.deps.store, jobStream(job.jobId), jobDecider, {
        type: 'FailJob',
        data: {
          jobId: job.jobId,
          computeMs: 0,
          code: 'queue_timeout',
          message: `the job waited more than ${Math.round(timeoutMs / 1000)} s to begin computing; nothing was charged`,
        },
        metadata: { now, actor: SCHEDULER },
      });
      expired += events.length;
    }
    return expired;
  }

  /**
   * Publishes the solve command again for running jobs that no solver has begun computing
   * `afterMs` after the slot was given (a scheduler that stopped between JobStarted and the
   * publish). The bus drops a message id it still holds, so a job already in a node's hands is
   * not run twice; a job whose node died is redelivered by the bus itself. Returns how many
   * commands it published.
   */
  async redispatchStalled(
    running: { jobId: string; startedAt: string | null; computing: boolean }[],
    afterMs: number,
  ): Promise<number> {
    const now = Date.parse(this.deps.clock());
    let published = 0;
    for (const job of running) {
      if (job.computing || !job.startedAt || now - Date.parse(job.startedAt) < afterMs) continue;
      await this.deps.bus.publish(SOLVE_SUBJECT, job.jobId, { jobId: job.jobId } satisfies SolveMessage);
      published++;
    }
    return published;
  }

  /**
   * Releases the reservation of a job that was admitted but never queued (charges nothing). The
   * job is voided first (domain/job/abandon.ts), so an admission that stalled and comes back
   * later cannot queue it any more; resolves false (nothing released) when the job turned out to
   * be queued after all.
   */
  async releaseOrphan(orgId: string, jobId: string): Promise<boolean> {
    return !(await abandonAdmission(this.deps.store, orgId, jobId, this.deps.clock(), SCHEDULER)).queued;
  }

  /**
   * Start-up repair (embedded profile: the solver ran in this process, so nothing is still
   * computing): jobs admitted on the ledger but never queued are queued; every queued or running
   * job fails with `server_restarted` (not charged); every ended job is settled.
   * `openReservations` lists, per organization, the job ids the ledger still holds credits for.
   * In bulk: the jobs fail in parallel (RECOVERY_CONCURRENCY at once, their appends share group
   * commits), then their settlements go to the organization's ledger RECOVERY_SETTLE_BATCH per
   * append (domain/decider/batch.ts). Every event keeps its deterministic id (`<job>:ended`,
   * `<job>:settled`), so a recovery cut short and run again fails and settles nothing twice.
   * Last, the freed compute slots go to queued jobs (startJobs) unless `options.startQueued` is
   * false: then the caller starts them (service/roles/scheduler.ts does, after it begins reacting
   * from the head, so the reactions skip recovery's own failures and settlements, which recovery
   * has already followed up, and still see the starts).
   * Returns the jobs it failed and the settlements it wrote.
   */
  async recover(
    openReservations: { orgId: string; jobIds: string[] }[],
    options: { startQueued?: boolean } = {},
  ): Promise<{ restarted: number; settled: number }> {
    let restarted = 0;
    let settled = 0;
    for (const { orgId, jobIds } of openReservations) {
      const settlements: LedgerCommand[] = [];
      const neverQueued: string[] = [];
      let next = 0;
      const failOne = async (jobId: string): Promise<void> => {
        const { state } = await loadState<JobState, JobEvent>(this.deps.store, jobStream(jobId), jobDecider);
        if (state.status === 'none') {
          neverQueued.push(jobId);
          const stored = (await readJobBody(this.deps.store, jobId)).request;
          if (stored)
            await handleCommand(this.deps.store, jobStream(jobId), jobDecider, {
              type: 'QueueJob',
              data: stored.queued,
              metadata: this.metadata(),
            });
        }
        const failed = await handleCommand(this.deps.store, jobStream(jobId), jobDecider, {
          type: 'FailJob',
          data: {
            jobId,
            computeMs: 0,
            code: 'server_restarted',
            message: 'the service restarted while the job was queued or running; nothing was charged',
          },
          metadata: this.metadata(),
        });
        if (failed.events.length > 0) restarted++;
        const settlement = settleCommandOf(jobId, failed.state, this.metadata());
        // A job queued for another organization than the ledger that holds it (never made so) settles on its own.
        if (settlement && failed.state.queued!.orgId === orgId) settlements.push(settlement);
        else if (settlement) await this.settle(jobId);
      };
      // Jobs in parallel; each job's own steps in order.
      await Promise.all(
        Array.from({ length: Math.min(RECOVERY_CONCURRENCY, jobIds.length) }, async () => {
          while (next < jobIds.length) await failOne(jobIds[next++]!);
        }),
      );
      for (let i = 0; i < settlements.length; i += RECOVERY_SETTLE_BATCH) {
        const { events } = await handleCommand(
          this.deps.store,
          ledgerStream(orgId),
          batchDecider(ledgerDecider),
          settlements.slice(i, i + RECOVERY_SETTLE_BATCH),
        );
        settled += events.length;
      }
      // Admitted but never queued, with no stored request: voided, their hold released.
      for (const jobId of neverQueued) await this.releaseOrphan(orgId, jobId);
      if (options.startQueued !== false) await this.startJobs(orgId);
    }
    return { restarted, settled };
  }
}
