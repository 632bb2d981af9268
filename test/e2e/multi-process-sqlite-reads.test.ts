/**
 * The multi-process profile with `PACKING_READ_STORE=sqlite` (service/profile.ts): the
 * projector/scheduler process writes the read models into `<data dir>/read-models.db` and the two
 * API processes follow its checkpoints instead of projecting the log themselves. nats-server, two
 * API processes, one projector/scheduler process and two solver nodes on one SQLite event store:
 * a batch of jobs goes in through both API processes; every job is read at once from the other
 * API process, awaited there with `?wait=`, listed alike by both, ends once and is charged once;
 * the balances agree, `POST /v1/pack?wait=` answers the finished job on each process, and the
 * billing audit replay finds no difference.
 */
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { READ_MODELS_FILE } from '../../service/open-adapters.js';
import { toCredits } from '../../domain/ledger/money.js';
import type { Plan } from '../../domain/pack/plan.js';
import { verifyPlan } from '../../solver/verify/verify.js';
import { modelOf } from '../helpers/example-model.js';
import { auditJobs } from '../helpers/job-audit.js';
import { awaitBatch, jobBatch, submitBatch } from '../helpers/job-batch.js';
import {
  provisionClusterOrganization,
  startLocalCluster,
  type ClusterProcess,
  type LocalCluster,
} from '../helpers/local-cluster.js';
import { natsServerBinary } from '../helpers/nats-server.js';
import { call } from '../helpers/service-process.js';
import { nodeChild } from '../helpers/node-child.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
t.setTimeout(600_000);
const JOBS = 20;
/** Compute budget of every job, s (keeps the machine's load down). */
const TIME_LIMIT_SECONDS = 1;

if (!natsServerBinary()) {
  // In CI (.ci/run installs Debian's nats-server) a missing server is a failure, not a skip.
  if (process.env['CI']) t.fail('nats-server is not installed, and CI must run the multi-process test');
  else t.pass('skipped: no nats-server', { skip: "nats-server is not installed (bash .ci/run installs Debian's)" });
} else {
  const dataDir = mkdtempSync(join(tmpdir(), 'packing-cluster-sqlite-reads-'));
  let cluster: LocalCluster | undefined;
  t.teardown(async () => {
    await cluster?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  t.test(`${JOBS} jobs through two API processes that follow the projector's SQLite read models`, async (t) => {
    const orgs = [
      await provisionClusterOrganization(dataDir, 'Harbour Freight', { concurrency: 2, maxQueuedJobs: 50 }),
      await provisionClusterOrganization(dataDir, 'Inland Freight', { concurrency: 2, maxQueuedJobs: 50 }),
    ];
    cluster = await startLocalCluster({
      dataDir,
      apis: 2,
      cores: 1,
      solvers: 2,
      ackWaitSeconds: 5,
      env: { PACKING_READ_STORE: 'sqlite' },
    });
    const apis = cluster.apis.map((a) => a.url);

    // Who writes the read models and who follows them, as each process says at start.
    const caughtUp = (p: ClusterProcess) =>
      p.entries.find((e) => e['msg'] === 'read models caught up with the event log');
    t.same(
      [...cluster.cores, ...cluster.apis].map((p) => [p.name, caughtUp(p)?.['readStore'], caughtUp(p)?.['writer']]),
      [
        ['core-1', 'sqlite', true],
        ['api-1', 'sqlite', false],
        ['api-2', 'sqlite', false],
      ],
      'the projector writes the SQLite read models; both API processes follow them',
    );
    t.ok(existsSync(join(dataDir, READ_MODELS_FILE)), `${READ_MODELS_FILE} is in the data dir`);

    const started = Date.now();
    const submitted = await submitBatch(
      jobBatch(JOBS, TIME_LIMIT_SECONDS),
      apis,
      orgs.map((o) => o.key),
      true,
    );
    t.same(
      submitted.filter((s) => s.readElsewhere !== 200).map((s) => s.id),
      [],
      'every job posted to one API process is read at once from the other',
    );
    // `?wait=` through the other API process than the one each job was posted to.
    const ended = await awaitBatch(submitted, 240_000, apis);
    const endedMs = Date.now() - started;
    const audits = await auditJobs(
      dataDir,
      submitted.map((s) => s.id),
    );
    let verified = 0;
    for (const s of submitted) {
      const job = ended.get(s.id);
      const audit = audits.get(s.id)!;
      t.ok(
        job.status === 'succeeded' || (job.status === 'failed' && job.error?.code === 'time_limit_exceeded'),
        `${s.id} (${s.example}) ended: ${job.status} ${job.error?.code ?? ''}`,
      );
      if (audit.ends !== 1 || audit.slots !== 1 || audit.settlements !== 1)
        t.fail(`${s.id}: ${audit.ends} ends, ${audit.slots} compute slots, ${audit.settlements} settlements`);
      if (toCredits(audit.charged) !== job.cost.credits)
        t.fail(`${s.id}: the ledger charged ${toCredits(audit.charged)} credits, the job shows ${job.cost.credits}`);
      if (job.status !== 'succeeded') continue;
      // The result is read from the API process the job was posted to, the job from the other.
      const result = (await call(s.api, s.key, 'GET', `/v1/jobs/${s.id}/result`)).body;
      const plan: Plan = { vehicles: result.vehicles, unplaced: result.unplaced };
      const violations = verifyPlan(modelOf(s.body).model, plan);
      if (violations.length > 0)
        t.fail(`${s.id} (${s.example}) plan violations: ${JSON.stringify(violations.slice(0, 3))}`);
      else verified++;
    }
    const succeeded = submitted.filter((s) => ended.get(s.id).status === 'succeeded').length;
    t.equal(verified, succeeded, `${verified} plans verified`);
    t.pass(`each of the ${JOBS} jobs has one end event, one compute slot and one settlement, as the job shows`);

    // Lists and balances read alike on both API processes once every settlement is in.
    for (const org of orgs) {
      const mine = submitted
        .filter((s) => s.key === org.key)
        .map((s) => s.id)
        .sort();
      const lists = await Promise.all(
        apis.map(async (api) =>
          ((await call(api, org.key, 'GET', '/v1/jobs?limit=100')).body.data as { id: string }[])
            .map((j) => j.id)
            .sort(),
        ),
      );
      t.same(lists, [mine, mine], `both API processes list the ${mine.length} jobs of the organization`);
      const balances = await Promise.all(
        apis.map(async (api) => (await call(api, org.key, 'GET', '/v1/balance')).body),
      );
      t.same(balances[1], balances[0], 'both API processes show the same balance');
    }

    // `POST /v1/pack?wait=` answers the finished job on each API process.
    for (const [i, api] of apis.entries()) {
      const body = {
        vehicles: [{ vehicle_id: 'van-3-5t' }],
        items: [{ length: 60, width: 40, height: 40, weight: 10, quantity: 12 }],
        reference: `sqlite-reads-${i + 1}`,
      };
      const posted = await call(api, orgs[i]!.key, 'POST', '/v1/pack?wait=60', body);
      t.same(
        [posted.status, posted.body.status],
        [200, 'succeeded'],
        `POST /v1/pack?wait=60 on api-${i + 1} answers the succeeded job`,
      );
      const other = apis[(i + 1) % apis.length]!;
      const listed = (await call(other, orgs[i]!.key, 'GET', `/v1/jobs?reference=sqlite-reads-${i + 1}`)).body;
      t.same(
        listed.data.map((j: { id: string }) => j.id),
        [posted.body.id],
        `the other API process lists it at once by its reference`,
      );
    }
    t.comment(
      `PACKING_READ_STORE=sqlite: ${JOBS} jobs submitted, ${succeeded} succeeded, ${JOBS} charged once, all ended ${(endedMs / 1000).toFixed(1)} s after the first was posted`,
    );

    const replay = spawnSync(...nodeChild(['--import', 'tsx', 'scripts/replay-billing.ts', '--data-dir', dataDir]), {
      cwd: ROOT,
      encoding: 'utf8',
    });
    t.equal(replay.status, 0, `replay-billing exits 0:\n${replay.stdout}${replay.stderr}`);
    t.match(replay.stdout, / 0 differences/, 'replay-billing reports 0 differences');
  });
}
