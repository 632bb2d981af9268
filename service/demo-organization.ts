/**
 * First start of the embedded profile on a fresh data dir (no organization yet): a demo
 * organization (active API subscription, 1,000 credits for a year, the spec's default limits)
 * and one key with every scope, printed once and written to `<data dir>/demo-api-key`.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { createApiKey, provisionOrganization } from '../application/provision.js';
import type { EventStore } from '../domain/ports/event-store.js';
import type { ReadStore } from '../domain/ports/read-store.js';
import type { ReadModelProgress } from '../projections/progress.js';
import { ORGANIZATIONS, type OrganizationDocument } from '../projections/organizations/projection.js';
import { isEmbedded, type Profile } from './profile.js';

/** The file of the demo key in the data dir. */
export const DEMO_API_KEY_FILE = 'demo-api-key';

/** True for the embedded profile whose read models hold no organization yet. */
export async function wantsDemoOrganization(profile: Profile, reads: ReadStore): Promise<boolean> {
  return (
    isEmbedded(profile) && (await reads.collection<OrganizationDocument>(ORGANIZATIONS).find({ limit: 1 })).length === 0
  );
}

/**
 * Creates the demo organization and its key (see the module comment), waits until the read
 * models include the key, writes the key file (mode 0600) and prints the key on stdout once.
 */
export async function createDemoOrganization(
  services: { store: EventStore; projections: ReadModelProgress; clock: () => string; log: Logger },
  dataDir: string,
): Promise<void> {
  const now = services.clock();
  const expiresAt = new Date(Date.parse(now) + 365 * 86_400_000).toISOString();
  const org = await provisionOrganization(services.store, {
    name: 'Demo Logistics',
    ownerName: 'Demo Owner',
    subscriptionCredits: 1000,
    expiresAt,
    now,
  });
  const key = await createApiKey(services.store, { orgId: org.orgId, memberId: org.ownerId, name: 'demo', now });
  await services.projections.waitFor(key.position);
  const keyFile = join(dataDir, DEMO_API_KEY_FILE);
  writeFileSync(keyFile, `${key.secret}\n`, { mode: 0o600 });
  services.log.info({ orgId: org.orgId, keyFile }, 'demo organization created');
  // Shown once, on the console, as the spec wants for new keys.
  process.stdout.write(`\nDemo API key (shown once, also in ${keyFile}):\n  ${key.secret}\n\n`);
}
