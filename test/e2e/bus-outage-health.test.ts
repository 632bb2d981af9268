/**
 * Health while the NATS server is gone (README "When an engine is down"), with a real
 * `nats-server` stopped and started again on the same port and store:
 * - a process with HTTP (every role, NATS bus): `/health` shows `bus: down since …` at once
 *   (200 degraded), turns 503 `down` past the grace period, and 200 `ok` once the server is back;
 * - a process without HTTP (a solver node): its heartbeat file is no longer refreshed past the
 *   grace period and says which dependency is down, and is refreshed again once the server is back.
 */
import t from 'tap';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import type { Profile } from '../../service/profile.js';
import { startService, type RunningService } from '../../service/server.js';
import { natsServerBinary, startNatsServer, type NatsServer } from '../helpers/nats-server.js';
import { call } from '../helpers/service-process.js';
import { solverThreadModule } from '../helpers/compiled-service.js';

const GRACE_MS = 1500;
const HEARTBEAT_MS = 100;

/** Resolves with `probe()`'s value once `check` holds for it (polled every 20 ms); rejects after `ms`. */
async function until<T>(
  probe: () => Promise<T> | T,
  check: (value: T) => boolean,
  what: string,
  ms = 30_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (check(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function heartbeat(file: string): { mtimeMs: number; content: any } {
  try {
    return { mtimeMs: statSync(file).mtimeMs, content: JSON.parse(readFileSync(file, 'utf8')) };
  } catch {
    return { mtimeMs: 0, content: null };
  }
}

if (!natsServerBinary()) {
  t.pass('skipped: no nats-server', { skip: "nats-server is not installed (bash .ci/run installs Debian's)" });
} else {
  t.test(
    'bus down: /health degraded, 503 past the grace period, 200 again; the heartbeat stops and says why',
    async (t) => {
      const storeDir = mkdtempSync(join(tmpdir(), 'nats-health-'));
      const apiDir = mkdtempSync(join(tmpdir(), 'packing-bus-health-'));
      const solverDir = mkdtempSync(join(tmpdir(), 'packing-bus-heartbeat-'));
      const heartbeatFile = join(solverDir, 'solver.heartbeat');
      let nats: NatsServer = await startNatsServer({ storeDir });
      const services: RunningService[] = [];
      t.teardown(async () => {
        for (const s of services) await s.close();
        await nats.stop();
        for (const dir of [storeDir, apiDir, solverDir]) rmSync(dir, { recursive: true, force: true });
      });
      const bus: Profile['bus'] = { kind: 'nats', url: nats.url, ackWaitMs: 30_000 };
      const common = {
        port: 0,
        host: '127.0.0.1',
        solverThreads: 1,
        solverConcurrency: 1,
        log: pino({ level: 'silent' }),
        dependencyGraceMs: GRACE_MS,
      };
      const all = await startService({
        solverThreadModule: solverThreadModule(),
        ...common,
        dataDir: apiDir,
        profile: {
          roles: new Set(['api', 'projector', 'scheduler', 'solver']),
          eventStore: { kind: 'sqlite' },
          readStore: { kind: 'memory' },
          bus,
        },
      });
      services.push(all);
      const solver = await startService({
        solverThreadModule: solverThreadModule(),
        ...common,
        dataDir: solverDir,
        profile: { roles: new Set(['solver']), eventStore: { kind: 'sqlite' }, readStore: { kind: 'memory' }, bus },
        heartbeatFile,
        heartbeatIntervalMs: HEARTBEAT_MS,
      });
      services.push(solver);
      t.equal(solver.url, '', 'the solver node has no HTTP');

      const health = () => call(all.url, null, 'GET', '/health');
      const before = await health();
      t.equal(before.status, 200);
      t.same(before.body.dependencies, { event_store: 'up', read_store: 'up', bus: 'up' });
      t.equal(before.body.status, 'ok');
      const fresh = await until(
        () => heartbeat(heartbeatFile),
        (h) => h.content?.status === 'ok',
        'a first heartbeat',
      );
      t.same(fresh.content.dependencies, { event_store: 'up', read_store: 'up', bus: 'up' });

      await nats.stop();
      const stoppedAt = Date.now();
      const degraded = await until(
        health,
        (res) => String(res.body.dependencies?.bus).startsWith('down since'),
        '/health to see the bus down',
      );
      const since = Date.parse(String(degraded.body.dependencies.bus).slice('down since '.length));
      t.ok(Math.abs(since - stoppedAt) < 1000, 'down since about when the server stopped');
      t.equal(degraded.status, 200, 'within the grace period: still 200');
      t.equal(degraded.body.status, 'degraded');
      t.same(degraded.body.dependencies, { event_store: 'up', read_store: 'up', bus: degraded.body.dependencies.bus });

      const down = await until(health, (res) => res.status === 503, '/health to turn 503 past the grace period');
      t.ok(Date.now() - since >= GRACE_MS, 'not before the grace period ended');
      t.equal(down.body.status, 'down');
      t.equal(down.body.error.code, 'api_disabled');
      t.match(down.body.error.message, /bus down since/);
      t.ok(Number(down.headers.get('retry-after')) > 0, 'with Retry-After');

      // The heartbeat: content says which dependency, and the file's time stops at the last healthy write.
      const stale = await until(
        () => heartbeat(heartbeatFile),
        (h) => h.content?.status === 'down',
        'the heartbeat to report the bus down',
      );
      t.match(stale.content.dependencies, { bus: /^down since /, event_store: 'up' });
      t.ok(
        stale.mtimeMs <= since + GRACE_MS + HEARTBEAT_MS + 1000,
        'the file was last refreshed around the end of the grace period',
      );
      const aged = await until(
        () => heartbeat(heartbeatFile),
        () => Date.now() - stale.mtimeMs > 5 * HEARTBEAT_MS,
        'five heartbeat intervals to pass',
      );
      t.equal(aged.mtimeMs, stale.mtimeMs, 'not refreshed while the bus is down');
      t.equal(aged.content.status, 'down');
      // Within a millisecond: the file system keeps times as fractions of a second.
      t.ok(
        Math.abs(Date.parse(aged.content.refreshed_at) - stale.mtimeMs) < 1,
        'the content names the last healthy refresh',
      );

      nats = await startNatsServer({ port: nats.port, storeDir });
      const back = await until(
        health,
        (res) => res.status === 200 && res.body.status === 'ok',
        '/health to be ok once the server is back',
      );
      t.same(back.body.dependencies, { event_store: 'up', read_store: 'up', bus: 'up' });
      const refreshed = await until(
        () => heartbeat(heartbeatFile),
        (h) => h.mtimeMs > stale.mtimeMs && h.content?.status === 'ok',
        'the heartbeat to be refreshed again',
      );
      t.same(refreshed.content.dependencies, { event_store: 'up', read_store: 'up', bus: 'up' });
    },
  );
}
