/**
 * The scrypt cost of new password hashes is a service option (ServiceConfig `passwordCost`): a
 * service given one stores its new hashes at it, by invitation and by password change; the
 * production default stores N = 2^15; a cost scrypt cannot use stops the start.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { pino } from 'pino';
import { DEFAULT_PASSWORD_COST } from '../../application/password.js';
import { credentialStream } from '../../domain/credential/streams.js';
import { startService, type RunningService } from '../../service/server.js';
import { inProcessService, orgWithKey, TEST_PASSWORD_COST } from '../helpers/in-process-service.js';
import { acceptedMember, browserCall } from '../helpers/web-session.js';
import { solverThreadModule } from '../helpers/compiled-service.js';

const low = inProcessService(t, 'password-cost-low');
const production = inProcessService(t, 'password-cost-prod', { passwordCost: DEFAULT_PASSWORD_COST });

/** The N, r, p of every password hash in `email`'s credential stream, oldest first. */
async function storedCosts(service: RunningService, email: string): Promise<{ N: number; r: number; p: number }[]> {
  const events = await service.services.store.readStream(credentialStream(email));
  return events.flatMap((e) => {
    const password = (e.data as { password?: { N: number; r: number; p: number } }).password;
    return password ? [{ N: password.N, r: password.r, p: password.p }] : [];
  });
}

t.test('the configured cost: new hashes at it, by invitation and by password change', async (t) => {
  const service = low.service;
  const { orgId } = await orgWithKey(service);
  const { browser } = await acceptedMember(service, orgId, 'low@example.com');
  const changed = await browserCall(service.url, browser, 'POST', '/app/api/password', {
    current_password: 'correct horse battery',
    new_password: 'battery staple horse',
  });
  t.equal(changed.status, 204);
  t.same(await storedCosts(service, 'low@example.com'), [{ ...TEST_PASSWORD_COST }, { ...TEST_PASSWORD_COST }]);
  const signIn = (email: string, password: string) =>
    browserCall(service.url, null, 'POST', '/app/api/session', { email, password }, { origin: service.url });
  t.equal((await signIn('low@example.com', 'battery staple horse')).status, 200);
  t.equal((await signIn('low@example.com', 'correct horse battery')).status, 401);
  t.equal((await signIn('nobody@example.com', 'correct horse battery')).status, 401, 'an unknown email: the same 401');
});

t.test('the default: the production cost', async (t) => {
  const service = production.service;
  const { orgId } = await orgWithKey(service);
  await acceptedMember(service, orgId, 'prod@example.com');
  t.same(await storedCosts(service, 'prod@example.com'), [{ N: 2 ** 15, r: 8, p: 1 }]);
});

t.test('a cost scrypt cannot use stops the start', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'packing-password-cost-bad-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  await t.rejects(
    startService({
      solverThreadModule: solverThreadModule(),
      port: 0,
      host: '127.0.0.1',
      dataDir: dir,
      solverThreads: 1,
      solverConcurrency: 1,
      log: pino({ level: 'silent' }),
      passwordCost: { N: 1000, r: 8, p: 1 },
    }),
    RangeError,
  );
});
