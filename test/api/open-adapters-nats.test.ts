/**
 * openAdapters with the NATS bus (distributed profile): the process's logger reaches the bus, its
 * state is readable and reported, and closing while nats-server is away neither hangs nor throws.
 */
import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import type { NatsBusStatus } from '../../adapters/nats/bus.js';
import { openAdapters } from '../../service/open-adapters.js';
import type { Profile } from '../../service/profile.js';
import { natsServerBinary, startNatsServer } from '../helpers/nats-server.js';

async function until(check: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

if (!natsServerBinary()) {
  t.plan(0, 'nats-server is not on PATH: skipped (apt-get install -y nats-server)');
} else {
  t.test(
    'the bus logs through the process logger, reports its state, and closes while its server is away',
    async (t) => {
      const server = await startNatsServer();
      t.teardown(() => server.stop());
      const dataDir = mkdtempSync(join(tmpdir(), 'open-adapters-nats-'));
      t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
      const lines: Record<string, unknown>[] = [];
      const sink = new Writable({
        write(chunk: Buffer, _encoding, done) {
          for (const line of chunk.toString().split('\n'))
            if (line) lines.push(JSON.parse(line) as Record<string, unknown>);
          done();
        },
      });
      const statuses: NatsBusStatus[] = [];
      const profile: Profile = {
        roles: new Set(['solver']),
        eventStore: { kind: 'sqlite' },
        readStore: { kind: 'memory' },
        bus: { kind: 'nats', url: server.url, ackWaitMs: 30_000 },
      };
      const adapters = await openAdapters(profile, dataDir, {
        log: pino({ level: 'info' }, sink),
        onBusStatus: (s) => statuses.push(s),
      });
      t.equal(adapters.busStatus?.().state, 'up');

      await server.stop({ keepStore: true });
      await until(() => adapters.busStatus?.().state === 'down');
      t.same(
        statuses.map((s) => s.state),
        ['down'],
      );
      const disconnected = lines.find((l) => l['msg'] === 'nats bus: disconnected');
      t.equal(disconnected?.['adapter'], 'nats-bus', 'a structured line of the bus, through the process logger');
      t.equal(disconnected?.['level'], 40, 'at warn level');

      const started = Date.now();
      await t.resolves(adapters.close(), 'closing does not throw while nats-server is away');
      t.ok(Date.now() - started < 10_000, `closed in ${Date.now() - started} ms`);
      t.equal(adapters.busStatus?.().reason, 'bus closed');
      // The data dir lock was released too: the embedded profile (an exclusive lock) opens the same data dir.
      const again = await openAdapters({ ...profile, roles: new Set(['api']), bus: { kind: 'inproc' } }, dataDir);
      await again.close();
    },
  );
}
