/**
 * The multi-process profile on one machine: nats-server, two API processes, two
 * projector/scheduler processes and two solver nodes, all separate processes started from
 * `service/main.ts` with PACKING_ROLES, sharing one SQLite event store file. 50 jobs of varied sizes
 * go in through both API processes for two organizations; one solver node is killed (SIGKILL)
 * in the middle of a search. Every job ends once, is charged once, every plan verifies, the
 * billing audit replay finds no difference, and a job posted to one API process can be read at
 * once from the other.
 */
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SqliteEventStore } from '../../adapters/sqlite/event-store.js';
import type { Plan } from '../../domain/pack/plan.js';
import { readLog } from '../../domain/ports/log-pages.js';
import { verifyPlan } from '../../solver/verify/verify.js';
import { modelOf } from '../helpers/example-model.js';
import { awaitBatch, jobBatch, submitBatch } from '../helpers/job-batch.js';
import { provisionClusterOrganization, startLocalCluster, type LocalCluster } from '../helpers/local-cluster.js';
import { natsServerBinary } from '../helpers/nats-server.js';
import { call } from '../helpers/service-process.js';
import { nodeChild } from '../helpers/node-child.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
// Seven processes share two cores with the other test files: more room than tap's default.
t.setTimeout(900_000);
const JOBS = 50;
const ACK_WAIT_SECONDS = 5;
/** The example whose search runs long enough (about 2 s) to be killed in the middle. */
const LONG = 'cartons-40hc-overflow.json';
/**
 * Compute budget of every job, s: the batch shares two cores with the other test files, so the
 * long example is held to 2 s (it converges in about 2 s on a free machine).
 */
const TIME_LIMIT_SECONDS = 2;

if (!natsServerBinary()) {
  // In CI (.ci/run installs Debian's nats-server) a missing server is a failure, not a skip.
  if (process.env['CI']) t.fail('nats-server is not installed, and CI must run the multi-process test');
  else t.pass('skipped: no nats-server', { skip: "nats-server is not installed (bash .ci/run installs Debian's)" });
} else {
  const dataDir = mkdtempSync(join(tmpdir(), 'packing-cluster-'));
  let cluster: LocalCluster | undefined;
  t.teardown(async () => {
    await cluster?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  t.test('50 jobs through two API processes and two solver nodes, one killed mid-search', async (t) => {
    const orgs = [
      await provisionClusterOrganization(dataDir, 'North Freight', { concurrency: 2, maxQueuedJobs: 50 }),
      await provisionClusterOrganization(dataDir, 'South Freight', { concurrency: 2, maxQueuedJobs: 50 }),
    ];
    // Two schedulers at once: slots are taken with expected-revision appends, no leader.
    cluster = await startLocalCluster({ dataDir, apis: 2, cores: 2, solvers: 2, ackWaitSeconds: ACK_WAIT_SECONDS });
    const [victim, survivor] = cluster.solvers as [(typeof cluster.solvers)[0], (typeof cluster.solvers)[0]];

    // Kill the victim the moment it starts computing a long job: the waiter is set before any job
    // exists and kills from its callback, so the search is surely under way and far from done.
    const longUnits = modelOf(jobBatch(JOBS, TIME_LIMIT_SECONDS).find((j) => j.example === LONG)!.body).items;
    const killing = victim
      .waitForLog((e) => e['msg'] === 'computing' && e['units'] === longUnits, 120_000)
      .then((e) => {
        victim.child.kill('SIGKILL');
        return e;
      });
    const batch = jobBatch(JOBS, TIME_LIMIT_SECONDS);
    const submitted = await submitBatch(
      batch,
      cluster.apis.map((a) => a.url),
      orgs.map((o) => o.key),
      true,
    );
    t.equal(submitted.length, JOBS);
    t.same(
      submitted.filter((s) => s.readElsewhere !== 200).map((s) => s.id),
      [],
      'every job posted to one API process is read at once from the other',
    );
    const computing = await killing;
    const killedJob = computing['jobId'] as string;
    const killedAt = await victim.exited;
    t.notOk(
      victim.entries.some((e) => e['msg'] === 'job solved' && e['jobId'] === killedJob),
      'the victim was killed before it finished the job',
    );
    const redelivered = await survivor.waitForLog((e) => e['msg'] === 'computing' && e['jobId'] === killedJob, 120_000);
    const redeliveryMs = (redelivered['time'] as number) - killedAt;
    t.ok(
      (redelivered['attempt'] as number) >= 2,
      `the killed node's job was delivered again (attempt ${String(redelivered['attempt'])})`,
    );
    t.ok(
      redeliveryMs <= (ACK_WAIT_SECONDS + 10) * 1000,
      `redelivered ${redeliveryMs} ms after the kill (ack wait ${ACK_WAIT_SECONDS} s)`,
    );
    t.comment(`SIGKILL of solver-1 during job ${killedJob}: redelivered to solver-2 after ${redeliveryMs} ms`);

    // `?wait=` through the other API process than the one each job was posted to.
    const ended = await awaitBatch(
      submitted,
      300_000,
      cluster.apis.map((a) => a.url),
    );
    const documented = new Set([
      'time_limit_exceeded',
      'engine_failed',
      'queue_timeout',
      'server_restarted',
      'canceled',
    ]);
    for (const s of submitted) {
      const job = ended.get(s.id);
      t.ok(
        job.status === 'succeeded' || (job.status === 'failed' && documented.has(job.error?.code)),
        `${s.id} (${s.example}) ended: ${job.status} ${job.error?.code ?? ''}`,
      );
    }
    t.equal(ended.get(killedJob).status, 'succeeded', 'the job of the killed node succeeded on the other node');

    // Every plan passes the independent verifier.
    let verified = 0;
    for (const s of submitted) {
      if (ended.get(s.id).status !== 'succeeded') continue;
      const result = (await call(s.api, s.key, 'GET', `/v1/jobs/${s.id}/result`)).body;
      const plan: Plan = { vehicles: result.vehicles, unplaced: result.unplaced };
      const violations = verifyPlan(modelOf(s.body).model, plan);
      if (violations.length > 0)
        t.fail(`${s.id} (${s.example}) plan violations: ${JSON.stringify(violations.slice(0, 3))}`);
      else verified++;
    }
    t.equal(
      verified,
      submitted.filter((s) => ended.get(s.id).status === 'succeeded').length,
      `${verified} plans verified`,
    );

    // SIGTERM: the node takes no new message, hands back the job it runs and exits; a node
    // started afterwards takes the job at once (no ack wait) and it ends once.
    const long = jobBatch(JOBS, TIME_LIMIT_SECONDS).find((j) => j.example === LONG)!;
    const [handed] = await submitBatch([long], [cluster.apis[0]!.url], [orgs[0]!.key]);
    await survivor.waitForLog((e) => e['msg'] === 'computing' && e['jobId'] === handed!.id, 120_000);
    const termAt = Date.now();
    await survivor.stop('SIGTERM');
    const stoppedMs = Date.now() - termAt;
    t.ok(
      survivor.entries.some((e) => e['msg'] === 'stopped'),
      `the node stopped cleanly within ${stoppedMs} ms of SIGTERM`,
    );
    const fresh = await cluster.addSolver();
    const taken = await fresh.waitForLog((e) => e['msg'] === 'computing' && e['jobId'] === handed!.id, 60_000);
    t.ok(
      (taken['time'] as number) - termAt < ACK_WAIT_SECONDS * 1000 + 30_000,
      'the handed-back job was taken by the new node',
    );
    const handedEnd = await awaitBatch([handed!], 120_000);
    t.equal(handedEnd.get(handed!.id).status, 'succeeded', 'the handed-back job succeeded on the new node');
    t.comment(
      `SIGTERM of solver-2 during job ${handed!.id}: exited after ${stoppedMs} ms; the job was computing on solver-3 ${(taken['time'] as number) - termAt} ms after the SIGTERM (attempt ${String(taken['attempt'])})`,
    );
    submitted.push(handed!);

    // The log: one end and one settlement per job, whatever was delivered twice.
    const store = new SqliteEventStore(join(dataDir, 'events.db'));
    const events = await readLog(store);
    await store.close();
    const count = (type: string, jobId: string): number =>
      events.filter((e) => e.type === type && (e.data as { jobId?: string }).jobId === jobId).length;
    for (const s of submitted) {
      const ends = count('JobSucceeded', s.id) + count('JobFailed', s.id);
      const settlements = events.filter(
        (e) =>
          e.stream.startsWith('ledger-') && e.type === 'JobSettled' && (e.data as { jobId: string }).jobId === s.id,
      ).length;
      // One compute slot per job, though two schedulers reacted to every event.
      const slots = events.filter(
        (e) =>
          e.stream.startsWith('ledger-') && e.type === 'JobStarted' && (e.data as { jobId: string }).jobId === s.id,
      ).length;
      if (ends !== 1 || settlements !== 1 || slots !== 1 || count('JobSucceeded', s.id) > 1)
        t.fail(`${s.id}: ${ends} ends, ${settlements} settlements, ${slots} slots`);
    }
    t.pass(`each of the ${submitted.length} jobs has one end event, one compute slot and one settlement in the log`);
    const computes = events.filter(
      (e) =>
        e.type === 'JobProgressed' &&
        (e.data as { jobId: string; stage: string }).jobId === killedJob &&
        (e.data as { stage: string }).stage === 'computing',
    ).length;
    t.ok(computes >= 2, `the killed job was started twice (${computes} computing reports) and ended once`);

    // Rate limits are counted once for all API processes (a shared SQLite counter file).
    const limited = await provisionClusterOrganization(dataDir, 'Tight Freight', {
      rateLimits: { perMinute: 6, perHour: 1000, perDay: 1000 },
    });
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++)
      statuses.push((await call(cluster.apis[i % 2]!.url, limited.key, 'GET', '/v1/balance')).status);
    t.same(
      statuses,
      [200, 200, 200, 200, 200, 200, 429, 429],
      'the 7th request a minute is refused, whichever API process gets it',
    );

    // The billing audit replay over the same log.
    const replay = spawnSync(...nodeChild(['--import', 'tsx', 'scripts/replay-billing.ts', '--data-dir', dataDir]), {
      cwd: ROOT,
      encoding: 'utf8',
    });
    t.equal(replay.status, 0, `replay-billing exits 0:\n${replay.stdout}${replay.stderr}`);
    t.match(replay.stdout, / 0 differences/, 'replay-billing reports 0 differences');
  });
}
