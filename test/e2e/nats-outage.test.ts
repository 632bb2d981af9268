/**
 * The distributed profile through a NATS outage (DESIGN §2): nats-server, two API processes, one
 * projector/scheduler process and two solver nodes on one SQLite event store. A batch of jobs
 * goes in; in the middle of it nats-server stops (SIGTERM) for 60 s while more jobs are
 * submitted, then comes back on the same port and store. Then once more, coming back with an
 * EMPTY store (a replaced server: the work-queue stream, its consumer and the solve commands in
 * it are gone). No service process is restarted. Every job ends exactly once (never stuck, never
 * `queue_timeout`), is charged exactly once, and the billing audit replay finds no difference;
 * the figures (jobs submitted / ended / charged, seconds from the server's return to the first
 * end) are printed as tap comments.
 *
 * What brings the work back: the bus reconnects for ever and re-creates its stream and consumer
 * (adapters/nats/bus.ts); solve commands published while the server was away, or lost with its
 * store, are published again by the scheduler's repair tick (domain/job/repair.ts) for started
 * jobs no solver took, at once when the bus reports it is back (service/server.ts) and then every
 * min(15 s, queue timeout / 4): QUEUE_TIMEOUT_SECONDS is set to 300 s, far above the 60 s outage
 * (so no job fails `queue_timeout`), which gives 15 s.
 */
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { connect } from 'nats';
import { repairIntervalMs } from '../../domain/job/repair.js';
import { toCredits } from '../../domain/ledger/money.js';
import { auditJobs } from '../helpers/job-audit.js';
import { awaitBatch, jobBatch, submitBatch, type Submitted } from '../helpers/job-batch.js';
import {
  provisionClusterOrganization,
  startLocalCluster,
  type ClusterProcess,
  type LocalCluster,
} from '../helpers/local-cluster.js';
import { natsServerBinary } from '../helpers/nats-server.js';
import { nodeChild } from '../helpers/node-child.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
// Six processes and a 60 s outage share two cores with the other test files.
t.setTimeout(600_000);
/** NATS ack wait of solve commands, s: a delivery lost with the connection comes back soon. */
const ACK_WAIT_SECONDS = 5;
/** Queue timeout of the scheduler, s: longer than any wait the outage causes (no `queue_timeout`). */
const QUEUE_TIMEOUT_SECONDS = 300;
/** Compute budget of every job, s (keeps the machine's load down). */
const TIME_LIMIT_SECONDS = 1;
/** Longest wait for every job of a case to end after the server's return, ms. */
const DRAIN_TIMEOUT_MS = 120_000;
/** Failure codes a job may end with here; `queue_timeout` is not one (the outage must not expire jobs). */
const ACCEPTED_FAILURES = new Set(['time_limit_exceeded', 'engine_failed']);
/** Work-queue stream and durable consumer of solve commands (adapters/nats/bus.ts defaults). */
const STREAM = 'PACKING';
const CONSUMER = 'packing_solve';

/** One outage: jobs before and during it, how long, and how the server comes back. */
interface OutageCase {
  name: string;
  before: number;
  during: number;
  outageMs: number;
  emptyStore: boolean;
  /** The first job must end within this long of the server's return, ms. */
  firstEndWithinMs: number;
}

const repairMs = repairIntervalMs(QUEUE_TIMEOUT_SECONDS * 1000);
const CASES: OutageCase[] = [
  // Same store: solve commands in the stream survive; the ones refused while the server was away are published again by the repair.
  {
    name: 'nats-server down 60 s, back on the same store',
    before: 16,
    during: 16,
    outageMs: 60_000,
    emptyStore: false,
    firstEndWithinMs: 10_000,
  },
  // Empty store: the commands in the lost stream come back through the repair the scheduler runs when its bus is back.
  {
    name: 'nats-server down 30 s, back with an EMPTY store',
    before: 12,
    during: 12,
    outageMs: 30_000,
    emptyStore: true,
    firstEndWithinMs: 10_000,
  },
];

/** Processes of the cluster that exited (there must be none: an outage is not a crash). */
function exitedProcesses(processes: ClusterProcess[]): string[] {
  return processes
    .filter((p) => p.child.exitCode !== null || p.child.signalCode !== null)
    .map((p) => `${p.name} (${p.child.exitCode ?? p.child.signalCode})`);
}

/** Stream and consumer state on the server, or the error that says why there is none. */
async function solveQueue(url: string): Promise<{ messages: number; pending: number; ackPending: number } | string> {
  const nc = await connect({ servers: url, reconnect: false });
  try {
    const jsm = await nc.jetstreamManager();
    const stream = await jsm.streams.info(STREAM);
    const consumer = await jsm.consumers.info(STREAM, CONSUMER);
    return { messages: stream.state.messages, pending: consumer.num_pending, ackPending: consumer.num_ack_pending };
  } catch (err) {
    return String(err);
  } finally {
    await nc.close();
  }
}

/** Seconds with one decimal. */
const seconds = (ms: number): string => (ms / 1000).toFixed(1);

if (!natsServerBinary()) {
  // In CI (.ci/run installs Debian's nats-server) a missing server is a failure, not a skip.
  if (process.env['CI']) t.fail('nats-server is not installed, and CI must run the NATS outage test');
  else t.pass('skipped: no nats-server', { skip: "nats-server is not installed (bash .ci/run installs Debian's)" });
} else {
  const dataDir = mkdtempSync(join(tmpdir(), 'packing-outage-'));
  let cluster: LocalCluster | undefined;
  t.teardown(async () => {
    await cluster?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  t.test('jobs end once through NATS outages, with no service process restarted', async (t) => {
    const orgs = [
      await provisionClusterOrganization(dataDir, 'East Freight', { concurrency: 2, maxQueuedJobs: 100 }),
      await provisionClusterOrganization(dataDir, 'West Freight', { concurrency: 2, maxQueuedJobs: 100 }),
    ];
    cluster = await startLocalCluster({
      dataDir,
      apis: 2,
      cores: 1,
      solvers: 2,
      ackWaitSeconds: ACK_WAIT_SECONDS,
      env: { QUEUE_TIMEOUT_SECONDS: String(QUEUE_TIMEOUT_SECONDS) },
    });
    const running = cluster;
    const processes = [...running.cores, ...running.apis, ...running.solvers];
    const apis = running.apis.map((a) => a.url);
    const keys = orgs.map((o) => o.key);
    t.comment(
      `repair tick every ${seconds(repairMs)} s (QUEUE_TIMEOUT_SECONDS=${QUEUE_TIMEOUT_SECONDS}), ack wait ${ACK_WAIT_SECONDS} s, job time limit ${TIME_LIMIT_SECONDS} s`,
    );
    const everyJob: Submitted[] = [];

    for (const c of CASES) {
      const passed = await t.test(c.name, async (t) => {
        const batch = jobBatch(c.before + c.during, TIME_LIMIT_SECONDS);
        const before = await submitBatch(batch.slice(0, c.before), apis, keys);
        // The flow is under way (a job ended and was settled) when the server goes.
        await awaitBatch(before.slice(0, 1), 120_000);
        const stoppedAt = Date.now();
        await running.nats.stop({ keepStore: true });
        // The API processes need no NATS: jobs are accepted, and read from the other API process, during the outage.
        const during = await submitBatch(batch.slice(c.before), apis, keys, true);
        const submitted = [...before, ...during];
        everyJob.push(...submitted);
        t.equal(during.length, c.during, `${c.during} jobs accepted while nats-server was down`);
        t.same(
          during.filter((s) => s.readElsewhere !== 200).map((s) => s.id),
          [],
          'each of them read at once from the other API process',
        );
        // The outage itself: a deliberate hold.
        await delay(Math.max(0, stoppedAt + c.outageMs - Date.now()));
        await running.nats.start({ emptyStore: c.emptyStore });
        const returnedAt = running.nats.readyAt;

        const results = await Promise.allSettled(
          submitted.map(async (s) => (await awaitBatch([s], DRAIN_TIMEOUT_MS, apis)).get(s.id)),
        );
        const drainedMs = Date.now() - returnedAt;
        const audits = await auditJobs(
          dataDir,
          submitted.map((s) => s.id),
        );
        const stuck = submitted.filter((_, i) => results[i]!.status === 'rejected');
        const endedInOutage = submitted.filter(
          (s) => audits.get(s.id)!.endedAt >= stoppedAt && audits.get(s.id)!.endedAt < returnedAt,
        ).length;
        const endedAfter = submitted.map((s) => audits.get(s.id)!.endedAt).filter((at) => at >= returnedAt);
        const firstEndMs = endedAfter.length > 0 ? Math.min(...endedAfter) - returnedAt : Number.NaN;
        const republishes = running.cores
          .flatMap((p) => p.entries)
          .filter(
            (e) =>
              e['msg'] === 'published solve commands again for started jobs no solver took' &&
              (e['time'] as number) >= stoppedAt,
          );
        const redispatched = republishes.reduce((sum, e) => sum + (e['redispatched'] as number), 0);
        const firstRepublishMs = Math.min(...republishes.map((e) => e['time'] as number)) - returnedAt;
        // When each process's bus was up again (its first "connected"/"reconnected" line after the return).
        const busBack = [...running.cores, ...running.solvers].map((p) => {
          const back = p.entries.find(
            (e) =>
              typeof e['msg'] === 'string' &&
              /^nats bus: (re)?connected/.test(e['msg']) &&
              (e['time'] as number) >= returnedAt,
          );
          return `${p.name} ${back ? seconds((back['time'] as number) - returnedAt) : '–'} s`;
        });

        const jobs = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
        const succeeded = jobs.filter((j) => j.status === 'succeeded').length;
        const failures = new Map<string, number>();
        for (const j of jobs)
          if (j.status !== 'succeeded')
            failures.set(
              `${j.status} ${j.error?.code ?? ''}`.trim(),
              (failures.get(`${j.status} ${j.error?.code ?? ''}`.trim()) ?? 0) + 1,
            );
        const chargedOnce = submitted.filter((s) => audits.get(s.id)!.settlements === 1).length;
        const credits = submitted.reduce((sum, s) => sum + audits.get(s.id)!.charged, 0);
        t.comment(
          `${c.name}: ${submitted.length} jobs submitted (${c.before} before, ${c.during} during the ${seconds(c.outageMs)} s outage); ` +
            `${endedInOutage} ended during the outage; ${jobs.length} ended, ${stuck.length} stuck; ${succeeded} succeeded` +
            `${[...failures].map(([k, n]) => `, ${n} ${k}`).join('')}; ${chargedOnce} charged once (${toCredits(credits)} credits); ` +
            `first job ended ${seconds(firstEndMs)} s after the server's return, the last ${seconds(drainedMs)} s after it; ` +
            `${redispatched} solve commands republished by the repair, the first ${seconds(firstRepublishMs)} s after the return; bus up again: ${busBack.join(', ')}`,
        );

        t.same(
          stuck.map((s) => s.id),
          [],
          `no job stuck (${stuck.length} of ${submitted.length} did not end within ${seconds(DRAIN_TIMEOUT_MS)} s of the return)`,
        );
        t.ok(
          endedAfter.length > 0,
          `the outage held work back: ${endedAfter.length} jobs ended after the server's return`,
        );
        t.ok(
          firstEndMs <= c.firstEndWithinMs,
          `the first job ended ${seconds(firstEndMs)} s after the server's return (at most ${seconds(c.firstEndWithinMs)} s)`,
        );
        for (const [i, s] of submitted.entries()) {
          const result = results[i]!;
          if (result.status === 'rejected') continue;
          const job = result.value;
          const audit = audits.get(s.id)!;
          const ok = job.status === 'succeeded' || (job.status === 'failed' && ACCEPTED_FAILURES.has(job.error?.code));
          if (!ok) t.fail(`${s.id} (${s.example}) ended ${job.status} ${job.error?.code ?? ''}`);
          if (audit.ends !== 1 || audit.slots !== 1 || audit.settlements !== 1)
            t.fail(`${s.id}: ${audit.ends} ends, ${audit.slots} compute slots, ${audit.settlements} settlements`);
          if (toCredits(audit.charged) !== job.cost.credits)
            t.fail(
              `${s.id}: the ledger charged ${toCredits(audit.charged)} credits, the job shows ${job.cost.credits}`,
            );
        }
        t.pass(
          `the ${jobs.length} jobs that ended did so once, with one compute slot and one settlement, as the job shows`,
        );
        t.same(exitedProcesses(processes), [], 'no service process exited');

        // The stream and consumer are there again (re-created after an empty store), with nothing left in them.
        let queue = await solveQueue(running.nats.url);
        for (const until = Date.now() + 30_000; typeof queue === 'string' || queue.pending + queue.ackPending > 0;) {
          if (Date.now() > until) break;
          await delay(250);
          queue = await solveQueue(running.nats.url);
        }
        t.same(
          typeof queue === 'string' ? queue : { pending: queue.pending, ackPending: queue.ackPending },
          { pending: 0, ackPending: 0 },
          `stream ${STREAM} and consumer ${CONSUMER} exist, every solve command settled`,
        );
      });
      if (!passed?.ok) break;
    }

    // The billing audit replay over the whole log.
    const replay = spawnSync(...nodeChild(['--import', 'tsx', 'scripts/replay-billing.ts', '--data-dir', dataDir]), {
      cwd: ROOT,
      encoding: 'utf8',
    });
    t.equal(replay.status, 0, `replay-billing exits 0:\n${replay.stdout}${replay.stderr}`);
    t.match(replay.stdout, / 0 differences/, 'replay-billing reports 0 differences');
    t.comment(`${everyJob.length} jobs in all; replay-billing: ${replay.stdout.trim().split('\n').at(-1)}`);
  });
}
