/**
 * The multi-process profile over event stores that fail (DESIGN §2): nats-server, two API
 * processes, a projector/scheduler and a solver node, each started from
 * test/helpers/faulty-service-main.ts, which wraps the process's event store in
 * test/helpers/faulty-event-store.ts and, on its own timetable, drops its subscriptions every
 * FAULTS.dropEvery events and fails the whole store for FAULTS.failForMs every FAULTS.failEveryMs.
 * Jobs go in through both API processes (retried on 503 / 409 with the same Idempotency-Key).
 *
 * Afterwards: no process exited, the API never answered 500, every queued job ended once and
 * every admission was settled once in the log, and `replay-billing` finds 0 differences.
 */
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SqliteEventStore } from '../../adapters/sqlite/event-store.js';
import { readLog } from '../../domain/ports/log-pages.js';
import { NO_FAULTS, type FaultCounts, type FaultPlan } from '../helpers/faulty-event-store.js';
import { jobBatch } from '../helpers/job-batch.js';
import { provisionClusterOrganization, startLocalCluster, type LocalCluster } from '../helpers/local-cluster.js';
import { natsServerBinary } from '../helpers/nats-server.js';
import { awaitJob, jobProblems, postJobUntilAccepted, tallyJobs, type Answer } from '../helpers/store-fault-checks.js';
import { nodeChild } from '../helpers/node-child.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
t.setTimeout(300_000);
const JOBS = 16;
const WAVE = 4;
const FAULTS: FaultPlan = {
  dropEvery: 20,
  failEveryMs: 5000,
  failForMs: 1000,
  // In each process, its first append of these is cut off: admissions half way (API processes:
  // a hold the repair tick releases, a queued job the retry gets back) and a solver's outcome.
  cutOff: [
    { type: 'JobAdmitted', when: 'after' },
    { type: 'JobQueued', when: 'after' },
    { type: 'JobSucceeded', when: 'before' },
  ],
};
/** Pace of the balance reader, ms. */
const READ_EVERY_MS = 100;
/** Longest wait for the repair tick to release holds of admissions cut off half way, ms (30 s orphan age + 10 s ticks). */
const SETTLE_WAIT_MS = 60_000;

if (!natsServerBinary()) {
  if (process.env['CI']) t.fail('nats-server is not installed, and CI must run the multi-process tests');
  else t.pass('skipped: no nats-server', { skip: "nats-server is not installed (bash .ci/run installs Debian's)" });
} else {
  const dataDir = mkdtempSync(join(tmpdir(), 'packing-store-faults-'));
  let cluster: LocalCluster | undefined;
  t.teardown(async () => {
    await cluster?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  t.test(
    `${JOBS} jobs through a cluster whose processes each lose their event store every ${FAULTS.failEveryMs} ms`,
    async (t) => {
      const started = Date.now();
      // Four compute slots: a hold of an admission cut off after JobAdmitted takes one of them until
      // the repair tick releases it (30 s after it first saw it), and each API process cuts one off.
      const org = await provisionClusterOrganization(dataDir, 'Flaky Freight', { concurrency: 4, maxQueuedJobs: 50 });
      cluster = await startLocalCluster({
        dataDir,
        apis: 2,
        cores: 1,
        solvers: 1,
        faults: FAULTS,
        // The repair tick every 10 s; a claim cut off by an outage is taken over after 3 s.
        env: { QUEUE_TIMEOUT_SECONDS: '40', IDEMPOTENCY_PENDING_STALE_MS: '3000', IDEMPOTENCY_PENDING_WAIT_MS: '4000' },
      });
      const processes = [...cluster.apis, ...cluster.cores, ...cluster.solvers];
      const apis = cluster.apis.map((a) => a.url);

      const answers: Answer[] = [];
      // A reader asks both API processes for the balance all along (every /v1 request reads the
      // log's head first: read-your-writes), so requests meet the outages.
      let reading = true;
      const reader = (async () => {
        for (let i = 0; reading; i++) {
          const res = await fetch(`${apis[i % apis.length]!}/v1/balance`, {
            headers: { authorization: `Bearer ${org.key}` },
          });
          const body = (await res.json()) as { error?: { code?: string } };
          answers.push({
            status: res.status,
            ...(body.error?.code ? { code: body.error.code } : {}),
            retryAfter: res.headers.get('retry-after'),
          });
          await new Promise((r) => setTimeout(r, READ_EVERY_MS));
        }
      })();
      // In waves, each posted at once through both API processes and awaited through the other one.
      const ids: string[] = [];
      const ended: { status: string }[] = [];
      const waveSeconds: number[] = [];
      const batch = jobBatch(JOBS, 1);
      try {
        for (let w = 0; w < JOBS; w += WAVE) {
          const waveStart = Date.now();
          const wave = await Promise.all(
            batch
              .slice(w, w + WAVE)
              .map((job, i) =>
                postJobUntilAccepted(
                  apis[(w + i) % apis.length]!,
                  org.key,
                  job.body,
                  `cluster-faults-${w + i}`,
                  answers,
                ),
              ),
          );
          ids.push(...wave);
          ended.push(
            ...(await Promise.all(
              wave.map((id, i) => awaitJob(apis[(w + i + 1) % apis.length]!, org.key, id, answers, 240_000, 500, true)),
            )),
          );
          waveSeconds.push(Math.round((Date.now() - waveStart) / 1000));
        }
      } finally {
        reading = false;
        await reader;
      }
      t.equal(
        new Set(ids).size,
        JOBS,
        `${JOBS} distinct jobs accepted and ended ${Math.round((Date.now() - started) / 1000)} s after the start (waves of ${WAVE}: ${waveSeconds.join(', ')} s)`,
      );
      t.same(
        ended.filter((j) => j.status !== 'succeeded' && j.status !== 'failed').map((j) => j.status),
        [],
        'every job ended, read through the other API process',
      );

      // Admissions an outage cut off half way hold credits until the repair tick releases them.
      const file = join(dataDir, 'events.db');
      const deadline = Date.now() + SETTLE_WAIT_MS;
      let problems: string[];
      let jobs: ReturnType<typeof tallyJobs>;
      for (;;) {
        const store = new SqliteEventStore(file);
        jobs = tallyJobs(await readLog(store));
        await store.close();
        problems = jobProblems(jobs, true);
        if (problems.length === 0 || Date.now() > deadline) break;
        await new Promise((r) => setTimeout(r, 1000));
      }
      t.same(problems, [], `each of the ${jobs.size} jobs in the log ended once and was settled once`);
      const cutOff = [...jobs.values()].filter((j) => j.admitted === 1 && j.queued === 0).length;
      t.ok(cutOff >= 1, `${cutOff} admission(s) cut off after JobAdmitted, their holds released once`);
      for (const id of ids)
        if (jobs.get(id)?.ends !== 1 || jobs.get(id)?.settled !== 1) t.fail(`${id}: ${JSON.stringify(jobs.get(id))}`);

      t.same(
        processes.filter((p) => p.child.exitCode !== null || p.child.signalCode !== null).map((p) => p.name),
        [],
        'no process exited',
      );
      t.same(
        answers.filter((a) => a.status >= 500 && a.status !== 503),
        [],
        `no 5xx but 503 among ${answers.length} answers`,
      );
      t.ok(
        answers.some((a) => a.status === 503),
        'requests met the outages',
      );
      t.same(
        answers.filter((a) => a.status === 503 && (a.code !== 'api_disabled' || a.retryAfter === null)),
        [],
        'every 503 is api_disabled with Retry-After',
      );

      const replay = spawnSync(...nodeChild(['--import', 'tsx', 'scripts/replay-billing.ts', '--data-dir', dataDir]), {
        cwd: ROOT,
        encoding: 'utf8',
      });
      t.equal(replay.status, 0, `replay-billing exits 0:\n${replay.stdout}${replay.stderr}`);
      t.match(replay.stdout, / 0 differences/, 'replay-billing reports 0 differences');

      // Each process reports the faults it injected when it stops.
      const stopping = cluster;
      cluster = undefined;
      await stopping.stop();
      const total: FaultCounts = { ...NO_FAULTS };
      for (const p of processes) {
        const line = p.entries.find((e) => e['msg'] === 'faults injected');
        t.ok(
          line && p.entries.some((e) => e['msg'] === 'stopped'),
          `${p.name} stopped cleanly and reported its faults`,
        );
        const counts = (line?.['counts'] ?? {}) as Partial<FaultCounts>;
        for (const k of Object.keys(total) as (keyof FaultCounts)[]) total[k] += counts[k] ?? 0;
      }
      t.ok(total.outages > 0 && total.subscriptionsDropped > 0, 'outages and dropped subscriptions happened');
      const byStatus = answers.reduce<Record<string, number>>(
        (m, a) => ({ ...m, [a.status]: (m[a.status] ?? 0) + 1 }),
        {},
      );
      t.comment(
        `faults injected over ${processes.length} processes: ${JSON.stringify(total)}; answers by status ${JSON.stringify(byStatus)}; ${Math.round((Date.now() - started) / 1000)} s`,
      );
    },
  );
}
