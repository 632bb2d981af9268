/**
 * The scheduler role (DESIGN §4): the job and project process managers react to stored events
 * (service/scheduler-reactions.ts), start-up recovery in the embedded profile, the repair loop
 * (service/repair-loop.ts), and the webhooks (service/webhooks.ts; with several schedulers each
 * attempt is claimed by one, domain/webhook/deliver.ts).
 */
import type { Services } from '../../api/http/services.js';
import { JobProcess } from '../../domain/job/process.js';
import { RepairTick, settleClaimsLeftPending } from '../../domain/job/repair.js';
import { stepOutageLog } from '../../domain/log/outage-log.js';
import { retryStep } from '../../domain/log/retry-step.js';
import { DEFAULT_LIMITS } from '../../domain/organization/limits.js';
import type { Bus } from '../../domain/ports/bus.js';
import { ProjectProcess } from '../../domain/project/process.js';
import { DEFAULT_RETRY_POLICY } from '../../domain/webhook/retry-policy.js';
import { repairReads } from '../../projections/jobs/repair-reads.js';
import { ORGANIZATIONS, type OrganizationDocument } from '../../projections/organizations/projection.js';
import type { ProcessSettings } from '../process-settings.js';
import { isEmbedded, type Profile } from '../profile.js';
import { startRepairLoop } from '../repair-loop.js';
import { startReactions } from '../scheduler-reactions.js';
import { startWebhooks } from '../webhooks.js';

/** What the scheduler role runs with besides the services. */
export interface SchedulerOptions {
  profile: Profile;
  bus: Bus;
  /** How long a job may wait for a compute slot, ms. */
  queueTimeoutMs: number;
  /** Age of a pending Idempotency-Key claim the repair settles, ms. */
  pendingClaimStaleMs: number;
  /** Told each time the bus is up again: the repair runs at once. */
  busBack: Set<() => void>;
  /** Base of the links inside webhook payloads: PUBLIC_BASE_URL, else the service's own URL. */
  baseUrl: string;
  webhooks: ProcessSettings['webhooks'];
}

/** Starts the process managers with their recovery and repair loop, then the webhooks; adds each stop to `stops`. */
export async function startScheduler(
  services: Services,
  options: SchedulerOptions,
  stops: (() => Promise<void> | void)[],
): Promise<void> {
  stops.push(await startProcessManagers(services, options));
  const { webhooks } = options;
  stops.push(
    await startWebhooks(services, {
      baseUrl: options.baseUrl,
      allowPrivateTargets: webhooks.allowPrivateTargets,
      policy: { ...DEFAULT_RETRY_POLICY, baseMs: webhooks.retryBaseMs },
      pollMs: webhooks.pollMs,
      ...(webhooks.sender ? { sender: webhooks.sender } : {}),
    }),
  );
}

/** The job and project process managers, their start-up recovery and the repair loop. Returns their stop. */
async function startProcessManagers(services: Services, options: SchedulerOptions): Promise<() => Promise<void>> {
  const { store, reads, clock, log } = services;
  const { bus, queueTimeoutMs } = options;
  const jobProcess = new JobProcess({
    store,
    bus,
    clock,
    limitsOf: async (orgId) =>
      (await reads.collection<OrganizationDocument>(ORGANIZATIONS).get(orgId))?.limits ?? DEFAULT_LIMITS,
  });
  const projectProcess = new ProjectProcess({ store, clock });
  const headNow = (): Promise<number> =>
    retryStep(() => store.headPosition(), stepOutageLog(log, 'scheduler reactions', 'read the head position'));
  let reactFrom: number;
  if (isEmbedded(options.profile)) {
    // The solver ran in this process (the data dir lock proves no other instance lives), so
    // nothing is still computing: open jobs fail with server_restarted and cost nothing, and no
    // request is still creating a job: Idempotency-Key claims left pending are settled.
    const settled = await settleClaimsLeftPending({ store, reads: repairReads(reads), clock });
    for (const claim of settled)
      log.warn(claim, 'settled an Idempotency-Key claim left pending by a request that stopped');
    const ledgers = await repairReads(reads).ledgers();
    const repaired = await jobProcess.recover(
      ledgers.map((l) => ({ orgId: l.orgId, jobIds: l.heldJobIds })),
      { startQueued: false },
    );
    if (repaired.restarted > 0) log.warn(repaired, 'jobs open at start-up failed with server_restarted');
    // Reactions start after recovery's failures and settlements (it followed them up itself:
    // reacting again would re-read every job and ledger for nothing, 60,000 reads for 10,000
    // jobs) and before the slots it freed are given, so they see those starts.
    reactFrom = await headNow();
    for (const { orgId } of ledgers) await jobProcess.startJobs(orgId);
    // Ready only once the read models show recovery's events: a GET of a job it failed must not
    // answer `queued`, nor the balance count its released holds (read-your-writes, DESIGN §3).
    await services.projections.waitFor(await headNow(), Number.POSITIVE_INFINITY);
  } else {
    // Solver nodes live in other processes: a running job is theirs, and the bus gives the job
    // of a node that died to another one after the ack wait. Nothing is failed here.
    reactFrom = await headNow();
  }
  const tick = new RepairTick({
    store,
    jobs: jobProcess,
    projects: projectProcess,
    reads: repairReads(reads),
    clock,
    queueTimeoutMs,
    pendingClaimStaleMs: options.pendingClaimStaleMs,
  });
  const stopRepair = startRepairLoop(tick, { queueTimeoutMs, log, busBack: options.busBack });
  // Through store outages (service/scheduler-reactions.ts): resubscribes, and tries a failed step again.
  const stopReactions = startReactions({
    store,
    from: reactFrom,
    log,
    react: async (event) => {
      await jobProcess.react(event);
      await projectProcess.react(event);
    },
  });
  return async () => {
    stopRepair();
    await stopReactions();
  };
}
