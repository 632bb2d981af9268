/**
 * `npm run admin -- invite`: the first owner gets in. create-org, then invite
 * --role owner prints the invitation URL; the service on the same data dir accepts it and signs
 * the organization's existing owner member in.
 */
import t from 'tap';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { startService } from '../../service/server.js';
import { browserCall } from '../helpers/web-session.js';
import { nodeChild } from '../helpers/node-child.js';
import { solverThreadModule } from '../helpers/compiled-service.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'packing-admin-invite-'));
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

t.test('create-org, invite --role owner, accept: the owner member signs in', async (t) => {
  const org = await admin(['create-org', '--name', 'Acme', '--owner', 'Boss']);
  t.equal(org.code, 0, org.stderr);
  const { org_id: orgId, owner_id: ownerId } = JSON.parse(org.stdout) as { org_id: string; owner_id: string };
  const bad = await admin(['invite', '--org', orgId, '--email', 'boss@acme.example', '--role', 'king']);
  t.equal(bad.code, 2, 'a bad role is a usage error');
  const invited = await admin([
    'invite',
    '--org',
    orgId,
    '--email',
    'Boss@Acme.example',
    '--role',
    'owner',
    '--base-url',
    'https://packing.acme.example/',
  ]);
  t.equal(invited.code, 0, invited.stderr);
  const out = JSON.parse(invited.stdout) as { url: string; member_id: string; email: string; role: string };
  t.same([out.member_id, out.email, out.role], [ownerId, 'boss@acme.example', 'owner'], 'the existing owner member');
  const token = /^https:\/\/packing\.acme\.example\/app\/invitations\/([A-Za-z0-9_-]{43})$/.exec(out.url)?.[1];
  t.ok(token, out.url);

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
  const accepted = await browserCall(service.url, null, 'POST', `/app/api/invitations/${token}/accept`, {
    name: 'Bea Boss',
    password: 'correct horse battery',
  });
  t.equal(accepted.status, 200, JSON.stringify(accepted.body));
  t.same(accepted.body.user, { id: ownerId, name: 'Bea Boss', email: 'boss@acme.example', role: 'owner' });
  t.same(accepted.body.organization, {
    id: orgId,
    name: 'Acme',
    display_units: 'metric',
    allowed_vehicle_types: ['truck', 'trailer', 'container', 'pallet'],
    axle_access: false,
  });
});

t.test(
  'an invitation printed while the service runs opens at once: no 404 while the read models catch up',
  async (t) => {
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
    const org = await admin(['create-org', '--name', 'Live', '--owner', 'Lee']);
    t.equal(org.code, 0, org.stderr);
    const { org_id: orgId } = JSON.parse(org.stdout) as { org_id: string };
    const invited = await admin(['invite', '--org', orgId, '--email', 'lee@live.example', '--role', 'owner']);
    t.equal(invited.code, 0, invited.stderr);
    const token = /\/app\/invitations\/([A-Za-z0-9_-]{43})$/.exec(
      (JSON.parse(invited.stdout) as { url: string }).url,
    )?.[1];
    // Asked the moment the CLI has printed it, before the running service's read models saw the event.
    const opened = await browserCall(service.url, null, 'GET', `/app/api/invitations/${token}`);
    t.equal(opened.status, 200, JSON.stringify(opened.body));
    t.same([opened.body.email, opened.body.organization.id], ['lee@live.example', orgId]);
    const unknown = await browserCall(service.url, null, 'GET', `/app/api/invitations/${'A'.repeat(43)}`);
    t.same([unknown.status, unknown.body.error.code], [404, 'not_found'], 'an unknown token is still 404');
  },
);
