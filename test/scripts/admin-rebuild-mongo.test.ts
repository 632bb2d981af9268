/**
 * `npm run admin -- rebuild-read-models` with PACKING_READ_STORE=mongodb, through the real CLI
 * entry: it goes to MongoDB (not to the data dir's SQLite file), says what is missing, and an
 * unreachable server is an error within the connection string's serverSelectionTimeoutMS (no
 * hang). The rebuild itself is tested through the stand-in (test/adapters/mongodb-generations.test.ts).
 */
import t from 'tap';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nodeChild } from '../helpers/node-child.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'packing-admin-rebuild-mongo-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));

function admin(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string; ms: number }> {
  const started = Date.now();
  return new Promise((resolve) => {
    execFile(
      ...nodeChild(['--import', 'tsx', 'scripts/admin.ts', ...args]),
      { cwd: ROOT, env: { ...process.env, PACKING_DATA_DIR: join(dir, 'data'), ...env } },
      (err, stdout, stderr) =>
        resolve({ code: err ? Number((err as { code?: unknown }).code) : 0, stdout, stderr, ms: Date.now() - started }),
    );
  });
}

t.test('MONGODB_URL missing: exit 2 with the variable named', async (t) => {
  const r = await admin(['rebuild-read-models'], { PACKING_READ_STORE: 'mongodb', MONGODB_URL: '' });
  t.equal(r.code, 2);
  t.match(r.stderr, /^admin: MONGODB_URL is required with PACKING_READ_STORE=mongodb/);
});

t.test(
  "an unreachable MongoDB: exit 1 with the driver's error, within the selection timeout; no read-models.db made",
  async (t) => {
    const r = await admin(['rebuild-read-models'], {
      PACKING_READ_STORE: 'mongodb',
      MONGODB_URL: 'mongodb://127.0.0.1:1/?serverSelectionTimeoutMS=300',
      PACKING_EVENT_STORE: 'sqlite',
    });
    t.equal(r.code, 1, r.stderr);
    t.match(r.stderr, /^admin: connect ECONNREFUSED 127\.0\.0\.1:1/);
    t.ok(r.ms < 60_000, `answered in ${r.ms} ms`);
    t.notOk(existsSync(join(dir, 'data', 'read-models.db')), 'the SQLite read models were not touched');
  },
);
