/**
 * The real service in the test's own process on a temporary data dir and a free port (embedded
 * profile, one solver thread and one compute slot, new password hashes at TEST_PASSWORD_COST
 * unless told otherwise, silent log), closed and
 * removed at the end of the test file, its solver threads on the compiled `dist/solver/thread.js`
 * when fresh (test/helpers/compiled-service.ts); and organizations with a key whose rate limits
 * never get in a test's way.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Test } from 'tap';
import { pino } from 'pino';
import { startService, type RunningService, type ServiceConfig } from '../../service/server.js';
import { createApiKey, provisionOrganization } from '../../application/provision.js';
import { solverThreadModule } from './compiled-service.js';
import type { OrgLimits } from '../../domain/organization/limits.js';
import type { PasswordCost } from '../../application/password.js';

/**
 * scrypt cost of the passwords the in-process service hashes: N = 2^10 (32 times cheaper than
 * the production DEFAULT_PASSWORD_COST). A test of the cost itself gives `passwordCost`.
 */
export const TEST_PASSWORD_COST: Readonly<PasswordCost> = Object.freeze({ N: 2 ** 10, r: 8, p: 1 });

/** A running service for `t` (a test file's root); `restart()` stops it and starts it again on the same data dir. */
export function inProcessService(
  t: Test,
  name: string,
  config: Partial<ServiceConfig> = {},
): { readonly service: RunningService; restart(): Promise<void> } {
  const dir = mkdtempSync(join(tmpdir(), `packing-${name}-`));
  const start = () =>
    startService({
      port: 0,
      host: '127.0.0.1',
      dataDir: dir,
      solverThreads: 1,
      solverConcurrency: 1,
      log: pino({ level: 'silent' }),
      solverThreadModule: solverThreadModule(),
      passwordCost: TEST_PASSWORD_COST,
      ...config,
    });
  let running: RunningService | undefined;
  t.before(async () => {
    running = await start();
  });
  t.teardown(async () => {
    await running?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    get service(): RunningService {
      if (!running) throw new Error('the service is not started yet (use it inside a test)');
      return running;
    },
    async restart(): Promise<void> {
      await running?.close();
      running = await start();
    },
  };
}

/** An organization (100 subscription credits, rate limits out of the way) and one key with every scope. */
export async function orgWithKey(
  service: RunningService,
  options: { name?: string; limits?: Partial<OrgLimits>; axleAccess?: boolean } = {},
): Promise<{ orgId: string; ownerId: string; key: string; keyId: string }> {
  const now = new Date().toISOString();
  const o = await provisionOrganization(service.services.store, {
    name: options.name ?? 'Test',
    ownerName: 'Owner',
    subscriptionCredits: 100,
    expiresAt: '2099-01-01T00:00:00.000Z',
    now,
    axleAccess: options.axleAccess ?? false,
    limits: { rateLimits: { perMinute: 100_000, perHour: 100_000, perDay: 100_000 }, ...options.limits },
  });
  const k = await createApiKey(service.services.store, { orgId: o.orgId, memberId: o.ownerId, name: 'test', now });
  await service.services.projections.waitFor(k.position);
  return { ...o, key: k.secret, keyId: k.keyId };
}
