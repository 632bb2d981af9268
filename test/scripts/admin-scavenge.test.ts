/**
 * `npm run admin -- scavenge` through the real CLI entry (scripts/admin.ts in a child process):
 * refused with exit 2 on the embedded SQLite store, usage errors exit 2, and on EventStoreDB it
 * starts a scavenge on the node of EVENTSTORE_URL (here the operations stand-in) and prints its id.
 */
import t from 'tap';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startOperationsStandIn } from '../helpers/eventstore-operations-stand-in.js';
import { nodeChild } from '../helpers/node-child.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'packing-admin-scavenge-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the admin with `env` over the test's environment: exit code, stdout, stderr. */
function admin(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      ...nodeChild(['--import', 'tsx', 'scripts/admin.ts', ...args]),
      { cwd: ROOT, env: { ...process.env, PACKING_DATA_DIR: join(dir, 'data'), ...env } },
      (err, stdout, stderr) => resolve({ code: err ? Number((err as { code?: unknown }).code) : 0, stdout, stderr }),
    );
  });
}

t.test('embedded (SQLite): refused with exit 2 and the reason; no data dir made', async (t) => {
  const refused = await admin(['scavenge'], { PACKING_EVENT_STORE: 'sqlite' });
  t.equal(refused.code, 2);
  t.equal(refused.stdout, '');
  t.match(
    refused.stderr,
    /^admin: scavenge is an EventStoreDB operation and PACKING_EVENT_STORE is sqlite: the embedded event store overwrites a deleted job body when retention deletes it/,
  );
  t.notOk(existsSync(join(dir, 'data')), 'the data dir is not touched');
});

t.test('usage: bad numbers exit 2 before anything is sent; --help exits 0', async (t) => {
  for (const args of [
    ['--threads', '0'],
    ['--threads', '9'],
    ['--threads', '1.5'],
    ['--start-from-chunk', '-1'],
    ['--start-from-chunk', 'x'],
  ]) {
    const bad = await admin(['scavenge', ...args], {
      PACKING_EVENT_STORE: 'eventstoredb',
      EVENTSTORE_URL: 'esdb://admin:changeit@127.0.0.1:1?tls=false',
    });
    t.equal(bad.code, 2, `${args.join(' ')}: exit 2`);
    t.match(bad.stderr, /not a whole number/, `${args.join(' ')}: says why`);
  }
  const help = await admin(['scavenge', '--help'], {});
  t.equal(help.code, 0);
  t.match(help.stdout, /--threads <n>/);
  t.match(help.stdout, /--start-from-chunk <n>/);
  const missing = await admin(['scavenge'], { PACKING_EVENT_STORE: 'eventstoredb', EVENTSTORE_URL: '' });
  t.equal(missing.code, 2, 'EVENTSTORE_URL missing: exit 2');
  t.match(missing.stderr, /EVENTSTORE_URL is required/);
});

t.test('EventStoreDB: starts a scavenge with the settings and prints its id', async (t) => {
  const server = await startOperationsStandIn();
  t.teardown(() => server.close());
  const done = await admin(['scavenge', '--threads', '2', '--start-from-chunk', '3'], {
    PACKING_EVENT_STORE: 'eventstoredb',
    EVENTSTORE_URL: server.url(),
  });
  t.equal(done.code, 0, done.stderr);
  t.strictSame(JSON.parse(done.stdout), { scavenge_id: 'scv-1', result: 'started', threads: 2, start_from_chunk: 3 });
  t.match(server.calls, [{ threads: 2, startFromChunk: 3 }]);
  await server.close();
  const down = await admin(['scavenge'], { PACKING_EVENT_STORE: 'eventstoredb', EVENTSTORE_URL: server.url() });
  t.equal(down.code, 1, 'no server: exit 1');
  t.match(down.stderr, /^admin: EventStoreDB did not start a scavenge: .*\(gRPC status 14\)/);
});
