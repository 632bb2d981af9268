/**
 * A start of the embedded service with queued jobs in the log (as a crash leaves them): start-up
 * recovery fails each with server_restarted and releases its hold, and the service is ready only
 * once the read models include recovery's events (service/roles/scheduler.ts). So the first
 * answers after `startService` resolves, with no wait, show every job failed and nothing
 * reserved; and the log holds exactly one failure and one settlement per job.
 */
import t from 'tap';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { JOBS, type JobDocument } from '../../projections/jobs/job-document.js';
import { seedJobLog } from '../../scripts/seed-log.js';
import { startService } from '../../service/server.js';
import { solverThreadModule } from '../helpers/compiled-service.js';

/** More than one recovery group (RECOVERY_CONCURRENCY) would make it slower than it needs to be here. */
const QUEUED = 1200;

t.test('the first answers after a restart show recovery done', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'restart-ready-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  // No compute slot: the jobs stay queued, credits held, as a restart finds them.
  const seeded = await seedJobLog(dir, {
    jobs: 0,
    queued: QUEUED,
    credits: 1_000_000,
    limits: { concurrency: 0, maxQueuedJobs: 1_000_000, rateLimits: { perMinute: 1e9, perHour: 1e9, perDay: 1e9 } },
  });
  const service = await startService({
    solverThreadModule: solverThreadModule(),
    port: 0,
    host: '127.0.0.1',
    dataDir: dir,
    solverThreads: 1,
    solverConcurrency: 1,
    log: pino({ level: 'silent' }),
  });
  t.teardown(() => service.close());
  const { store, reads, projections } = service.services;

  t.equal(projections.position, await store.headPosition(), 'the read models include the whole log at ready');
  const docs = await Promise.all(seeded.queuedIds.map((id) => reads.collection<JobDocument>(JOBS).get(id)));
  t.same(
    docs.filter((d) => d?.status !== 'failed' || d.error?.code !== 'server_restarted').map((d) => d?.id),
    [],
    'every job reads failed with server_restarted',
  );
  const auth = { authorization: `Bearer ${seeded.key}` };
  const job = (await (await fetch(`${service.url}/v1/jobs/${seeded.queuedIds.at(-1)}`, { headers: auth })).json()) as {
    status: string;
    error: { code: string };
  };
  t.same(
    { status: job.status, code: job.error.code },
    { status: 'failed', code: 'server_restarted' },
    'GET of the last job',
  );
  const balance = (await (await fetch(`${service.url}/v1/balance`, { headers: auth })).json()) as {
    reserved_credits: number;
  };
  t.equal(balance.reserved_credits, 0, 'no credits stay reserved');

  const db = new Database(join(dir, 'events.db'), { readonly: true });
  t.teardown(() => db.close());
  const count = (type: string, extra = ''): Map<string, number> => {
    const n = new Map<string, number>();
    for (const r of db.prepare(`SELECT data FROM events WHERE type = ?${extra}`).all(type) as { data: string }[]) {
      const id = (JSON.parse(r.data) as { jobId: string }).jobId;
      n.set(id, (n.get(id) ?? 0) + 1);
    }
    return n;
  };
  const failed = count('JobFailed', ` AND json_extract(data, '$.code') = 'server_restarted'`);
  const settled = count('JobSettled');
  t.equal(seeded.queuedIds.filter((id) => failed.get(id) === 1).length, QUEUED, 'each failed exactly once');
  t.equal(seeded.queuedIds.filter((id) => settled.get(id) === 1).length, QUEUED, 'each settled exactly once');
});
