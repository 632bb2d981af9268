/**
 * `npm run admin -- <command>`: organizations, credits and API keys, through the same domain
 * commands as the service, on the service's event store: PACKING_EVENT_STORE (default sqlite in
 * PACKING_DATA_DIR, default ./data; or eventstoredb at EVENTSTORE_URL). Safe while the service
 * runs: it picks the new events up from the shared log.
 *
 *   create-org --name "Acme" [--owner "Ann"] [--credits 1000] [--expires-at 2027-12-31T00:00:00Z]
 *   add-credits --org org_… --credits 250            (purchased credits, never expire)
 *   grant-subscription --org org_… --credits 1000 [--expires-at …]   (new period; replaces leftover)
 *   end-subscription --org org_…                      (then 403 subscription_inactive)
 *   create-key --org org_… [--member usr_…] [--name ci] [--expires-at T] [--allow-ip IP|CIDR …]
 *                                                          (prints the secret once)
 *   revoke-key --org org_… --key key_…
 *   rotate-key --org org_… --key key_…                    (prints the new secret once)
 *   list-keys --org org_…                                  (ids, names, settings; never secrets)
 *   list-orgs
 */
import { Command } from 'commander';
import { join, resolve } from 'node:path';
import { mkdirSync } from 'node:fs';
import { openEventStore } from '../api/open-adapters.js';
import { eventStoreFromEnvironment } from '../api/profile.js';
import { logEvents } from '../domain/ports/log-pages.js';
import type { EventStore } from '../domain/ports/event-store.js';
import { loadState } from '../domain/decider/handle.js';
import { organizationDecider } from '../domain/organization/decide.js';
import { orgStream } from '../domain/organization/streams.js';
import type { OrganizationEvent } from '../domain/organization/organization.js';
import { createApiKey, endSubscription, grantSubscription, provisionOrganization, purchaseCredits, revokeApiKey, rotateApiKey } from '../api/provision.js';

const dataDir = resolve(process.env['PACKING_DATA_DIR'] ?? './data');
mkdirSync(dataDir, { recursive: true });
// The event store the service uses: PACKING_EVENT_STORE (sqlite under the data dir, or
// eventstoredb at EVENTSTORE_URL).
let store: EventStore;
try {
  store = await openEventStore(eventStoreFromEnvironment(process.env), dataDir);
} catch (err) {
  console.error(`admin: ${(err as Error).message}`);
  process.exit(2);
}
const now = (): string => new Date().toISOString();

function positive(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) throw new Error(`not a non-negative number: ${value}`);
  return n;
}

async function ownerOf(orgId: string): Promise<string> {
  const { state } = await loadState(store, orgStream(orgId), organizationDecider);
  if (!state.exists) throw new Error(`no organization ${orgId}`);
  const owner = Object.entries(state.members).find(([, m]) => m.role === 'owner');
  if (!owner) throw new Error(`organization ${orgId} has no owner`);
  return owner[0];
}

const program = new Command('admin').description('Administer organizations, credits and API keys').showHelpAfterError();

program
  .command('create-org')
  .requiredOption('--name <name>', 'organization name')
  .option('--owner <name>', 'owner member name', 'Owner')
  .option('--credits <credits>', 'subscription credits granted now', positive, 1000)
  .option('--expires-at <time>', 'RFC 3339 end of the subscription period (default: one year)')
  .option('--axle-access', 'enable the axle fields and enforce_axle (spec Vehicle axle fields)', false)
  .action(async (o: { name: string; owner: string; credits: number; expiresAt?: string; axleAccess: boolean }) => {
    const raw = o.expiresAt ?? new Date(Date.now() + 365 * 86_400_000).toISOString();
    if (Number.isNaN(Date.parse(raw))) throw new Error(`not a timestamp: ${raw}`);
    const expiresAt = new Date(raw).toISOString();
    const org = await provisionOrganization(store, { name: o.name, ownerName: o.owner, subscriptionCredits: o.credits, expiresAt, now: now(), axleAccess: o.axleAccess });
    console.log(JSON.stringify({ org_id: org.orgId, owner_id: org.ownerId, subscription_credits: o.credits, subscription_expires_at: expiresAt, axle_access: o.axleAccess }));
  });

program
  .command('add-credits')
  .requiredOption('--org <id>', 'organization id')
  .requiredOption('--credits <credits>', 'credits bought', positive)
  .action(async (o: { org: string; credits: number }) => {
    await ownerOf(o.org);
    await purchaseCredits(store, o.org, o.credits, now());
    console.log(JSON.stringify({ org_id: o.org, purchased_credits: o.credits }));
  });

program
  .command('grant-subscription')
  .requiredOption('--org <id>', 'organization id')
  .requiredOption('--credits <credits>', 'subscription credits for the period', positive)
  .option('--expires-at <time>', 'RFC 3339 end of the period (default: one year)')
  .action(async (o: { org: string; credits: number; expiresAt?: string }) => {
    await ownerOf(o.org);
    const expiresAt = o.expiresAt ?? new Date(Date.now() + 365 * 86_400_000).toISOString();
    if (Number.isNaN(Date.parse(expiresAt))) throw new Error(`not a timestamp: ${expiresAt}`);
    await grantSubscription(store, o.org, o.credits, new Date(expiresAt).toISOString(), now());
    console.log(JSON.stringify({ org_id: o.org, subscription_credits: o.credits, subscription_expires_at: expiresAt }));
  });

program
  .command('end-subscription')
  .requiredOption('--org <id>', 'organization id')
  .action(async (o: { org: string }) => {
    await ownerOf(o.org);
    await endSubscription(store, o.org, now());
    console.log(JSON.stringify({ org_id: o.org, subscription: 'ended' }));
  });

program
  .command('create-key')
  .requiredOption('--org <id>', 'organization id')
  .option('--member <id>', 'member the key acts for (default: the owner)')
  .option('--name <name>', 'key name', 'api')
  .option('--expires-at <time>', 'RFC 3339 time the key stops working (401 key_expired)')
  .option('--allow-ip <ip...>', 'IPs or CIDR ranges allowed to call (403 ip_not_allowed for others)')
  .action(async (o: { org: string; member?: string; name: string; expiresAt?: string; allowIp?: string[] }) => {
    const memberId = o.member ?? (await ownerOf(o.org));
    if (o.expiresAt !== undefined && Number.isNaN(Date.parse(o.expiresAt))) throw new Error(`not a timestamp: ${o.expiresAt}`);
    const expiresAt = o.expiresAt !== undefined ? new Date(o.expiresAt).toISOString() : null;
    const key = await createApiKey(store, { orgId: o.org, memberId, name: o.name, now: now(), expiresAt, allowedIps: o.allowIp ?? [] });
    console.log(JSON.stringify({ key_id: key.keyId, secret: key.secret, expires_at: expiresAt, allowed_ips: o.allowIp ?? [], note: 'shown once; only a hash is stored' }));
  });

program
  .command('revoke-key')
  .requiredOption('--org <id>', 'organization id')
  .requiredOption('--key <id>', 'key id (key_…)')
  .action(async (o: { org: string; key: string }) => {
    await revokeApiKey(store, o.org, o.key, now());
    console.log(JSON.stringify({ key_id: o.key, revoked: true }));
  });

program
  .command('rotate-key')
  .requiredOption('--org <id>', 'organization id')
  .requiredOption('--key <id>', 'key id (key_…)')
  .action(async (o: { org: string; key: string }) => {
    const rotated = await rotateApiKey(store, o.org, o.key, now());
    console.log(JSON.stringify({ key_id: o.key, secret: rotated.secret, note: 'shown once; the old secret stopped' }));
  });

program
  .command('list-keys')
  .requiredOption('--org <id>', 'organization id')
  .description("the organization's API keys (never their secrets): id, name, prefix, scopes, settings, state")
  .action(async (o: { org: string }) => {
    const keys = new Map<string, Record<string, unknown>>();
    for (const e of await store.readStream(orgStream(o.org))) {
      const event = { type: e.type, data: e.data } as OrganizationEvent;
      if (event.type === 'ApiKeyCreated') {
        const d = event.data;
        keys.set(d.keyId, {
          key_id: d.keyId, name: d.name, prefix: d.prefix, scopes: d.scopes, member_id: d.memberId, created_at: d.createdAt,
          expires_at: d.expiresAt ?? null, allowed_ips: d.allowedIps ?? [], state: 'active',
        });
      } else if (event.type === 'ApiKeyRevoked') {
        const k = keys.get(event.data.keyId);
        if (k) Object.assign(k, { state: 'revoked', revoked_at: event.data.revokedAt });
      } else if (event.type === 'ApiKeyRotated') {
        const k = keys.get(event.data.keyId);
        if (k) Object.assign(k, { prefix: event.data.prefix, rotated_at: event.data.rotatedAt });
      }
    }
    if (keys.size === 0) throw new Error(`no organization ${o.org}, or it has no keys`);
    for (const k of keys.values()) console.log(JSON.stringify(k));
  });

program.command('list-orgs').action(async () => {
  for await (const e of logEvents(store)) {
    if (e.type === 'OrganizationCreated') {
      const d = e.data as { orgId: string; name: string; createdAt: string };
      console.log(JSON.stringify({ org_id: d.orgId, name: d.name, created_at: d.createdAt }));
    }
  }
});

try {
  await program.parseAsync(process.argv);
} catch (err) {
  console.error(`admin: ${(err as Error).message}`);
  process.exitCode = 1;
} finally {
  await store.close();
}
