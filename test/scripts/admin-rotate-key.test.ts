/**
 * `npm run admin -- rotate-key` (README "Administration"; spec Authentication 2: a new secret with
 * the same settings, the old one stops): `--prefix` names the secret to replace, as list-keys
 * shows it, and a rotation of a secret that was rotated since is refused (exit 1, conflict).
 * Unknown and revoked keys are refused as before.
 */
import t from 'tap';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nodeChild } from '../helpers/node-child.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'packing-admin-rotate-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));

function admin(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      ...nodeChild(['--import', 'tsx', 'scripts/admin.ts', ...args]),
      { cwd: ROOT, env: { ...process.env, PACKING_DATA_DIR: dir, PACKING_EVENT_STORE: 'sqlite' } },
      (err, stdout, stderr) => resolve({ code: err ? Number((err as { code?: unknown }).code) : 0, stdout, stderr }),
    );
  });
}

t.test('rotate-key --prefix: the listed secret rotates once; naming it again is a conflict', async (t) => {
  const org = await admin(['create-org', '--name', 'Acme']);
  t.equal(org.code, 0, org.stderr);
  const orgId = (JSON.parse(org.stdout) as { org_id: string }).org_id;
  const created = await admin(['create-key', '--org', orgId, '--name', 'ci']);
  t.equal(created.code, 0, created.stderr);
  const { key_id: keyId, secret } = JSON.parse(created.stdout) as { key_id: string; secret: string };
  const prefix = secret.slice(0, 12);

  const first = await admin(['rotate-key', '--org', orgId, '--key', keyId, '--prefix', prefix]);
  t.equal(first.code, 0, first.stderr);
  const newSecret = (JSON.parse(first.stdout) as { secret: string }).secret;
  t.not(newSecret, secret, 'a new secret');

  const stale = await admin(['rotate-key', '--org', orgId, '--key', keyId, '--prefix', prefix]);
  t.equal(stale.code, 1, 'refused');
  t.match(
    stale.stderr,
    new RegExp(`no longer has the secret ${prefix}…: it was rotated since \\(now ${newSecret.slice(0, 12)}…\\)`),
  );
  t.equal(stale.stdout, '', 'no secret printed');
  const listed = await admin(['list-keys', '--org', orgId]);
  t.equal(
    (JSON.parse(listed.stdout) as { prefix: string }).prefix,
    newSecret.slice(0, 12),
    'the key still has the secret handed out',
  );

  const plain = await admin(['rotate-key', '--org', orgId, '--key', keyId]);
  t.equal(plain.code, 0, 'without --prefix the secret the log has now is rotated');

  const unknown = await admin(['rotate-key', '--org', orgId, '--key', 'key_nosuchkey']);
  t.same([unknown.code, unknown.stderr.trim()], [1, 'admin: no API key key_nosuchkey in the organization']);
  t.equal((await admin(['revoke-key', '--org', orgId, '--key', keyId])).code, 0);
  const revoked = await admin(['rotate-key', '--org', orgId, '--key', keyId]);
  t.same([revoked.code, revoked.stderr.trim()], [1, `admin: API key ${keyId} is revoked`]);
});
