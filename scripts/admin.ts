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
 *   invite --org org_… --email E [--role owner|member] [--base-url URL]   (prints the web app's invitation URL once,
 *                                                          on the running service's address)
 *   revoke-key --org org_… --key key_…
 *   rotate-key --org org_… --key key_… [--prefix pk_live_…]   (prints the new secret once)
 *   list-keys --org org_…                                  (ids, names, settings; never secrets)
 *   list-orgs
 *   revoke-links <job id>                                  (every viewer/PDF link of the job issued so far stops; new ones work)
 *   maintenance on|off [--message TEXT] [--retry-after S]  (every /v1 call: 503 api_disabled)
 *   disable-api --org org_… [--message TEXT] [--retry-after S] / enable-api --org org_…
 *   suspend-org --org org_… [--reason TEXT] / reactivate-org --org org_…   (403 account_inactive)
 *   backup --to DIR                                        (online copy of the embedded data dir)
 *   rebuild-read-models                                    (SQLite: service stopped, read-models.db from the whole log;
 *                                                          MongoDB: a fresh generation beside the served one, then the switch)
 *   scavenge [--threads N] [--start-from-chunk N]          (EventStoreDB: start a scavenge, erasing deleted job bodies
 *                                                          from the chunk files; prints its id. Refused on SQLite)
 *
 * `npm run admin -- <command> --help` describes each command and its options. The program is
 * exported for tests; it runs only when this file is the entry point.
 */
import { Argument, Command, CommanderError, InvalidArgumentError } from 'commander';
import { resolve } from 'node:path';
import { mkdirSync, realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { BackupRefused, backupDataDir } from '../adapters/sqlite/backup.js';
import { openEventStore } from '../service/open-adapters.js';
import { rebuildReadModels } from '../service/read-models-rebuild.js';
import {
  dataDirFromEnvironment,
  eventStoreConfig,
  mongoReadStoreConfig,
  serviceAddressFromEnvironment,
} from '../service/config.js';
import { ProfileError } from '../service/profile.js';
import { MAX_SCAVENGE_THREADS, scavengeEventStore, ScavengeRefused } from '../service/scavenge.js';
import { logEvents } from '../domain/ports/log-pages.js';
import type { EventStore } from '../domain/ports/event-store.js';
import { loadState } from '../domain/decider/handle.js';
import { organizationDecider } from '../domain/organization/decide.js';
import { orgStream } from '../domain/organization/streams.js';
import type { OrganizationEvent } from '../domain/organization/organization.js';
import {
  createApiKey,
  currentKeySecret,
  endSubscription,
  grantSubscription,
  provisionOrganization,
  purchaseCredits,
  revokeApiKey,
  rotateApiKey,
} from '../application/provision.js';
import { invitationPath, issueInvitation } from '../application/invitations.js';
import { revokeJobLinks } from '../application/link-revocation.js';
import { runningServiceUrl } from '../service/service-address.js';
import { serviceActor } from '../domain/decider/actor.js';
import { DomainError } from '../domain/decider/decider.js';
import {
  setMaintenance,
  setOrganizationApi,
  setOrganizationSuspended,
  type Switched,
} from '../application/operator-commands.js';
import { MAINTENANCE_RETRY_AFTER_S, ORG_DISABLED_RETRY_AFTER_S } from '../domain/service-settings/retry-after.js';

const dataDir = (): string => resolve(dataDirFromEnvironment());
// The event store the service uses: PACKING_EVENT_STORE (sqlite under the data dir, or
// eventstoredb at EVENTSTORE_URL), opened by the first command that needs it (not by --help).
let opened: EventStore | undefined;

/** The event store could not be opened (bad PACKING_EVENT_STORE, unreachable server): exit 2. */
class StoreUnavailable extends Error {}

async function eventStore(): Promise<EventStore> {
  if (!opened) {
    try {
      mkdirSync(dataDir(), { recursive: true });
      opened = await openEventStore(eventStoreConfig(), dataDir());
    } catch (err) {
      throw new StoreUnavailable((err as Error).message, { cause: err });
    }
  }
  return opened;
}
const now = (): string => new Date().toISOString();

function positive(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) throw new InvalidArgumentError(`not a non-negative number: ${value}`);
  return n;
}

/** A whole number ≥ `min` (an option's value). */
const wholeAtLeast =
  (min: number, max = Number.MAX_SAFE_INTEGER) =>
  (value: string): number => {
    const n = Number(value);
    if (!/^[0-9]+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < min || n > max) {
      throw new InvalidArgumentError(
        `not a whole number from ${min}${max === Number.MAX_SAFE_INTEGER ? ' up' : ` to ${max}`}: ${value}`,
      );
    }
    return n;
  };

/** A whole number of seconds ≥ 1 (a Retry-After). */
function seconds(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError(`not a whole number of seconds ≥ 1: ${value}`);
  return n;
}

async function ownerOf(orgId: string): Promise<string> {
  const { state } = await loadState(await eventStore(), orgStream(orgId), organizationDecider);
  if (!state.exists) throw new Error(`no organization ${orgId}`);
  const owner = Object.entries(state.members).find(([, m]) => m.role === 'owner');
  if (!owner) throw new Error(`organization ${orgId} has no owner`);
  return owner[0];
}

async function mustExist(orgId: string): Promise<void> {
  const { state } = await loadState(await eventStore(), orgStream(orgId), organizationDecider);
  if (!state.exists) throw new Error(`no organization ${orgId}`);
}

/** Prints what a switch did: `changed` false (and a note) when it was already in that state. */
function printSwitched(what: Record<string, unknown>, done: Switched): void {
  console.log(
    JSON.stringify({
      ...what,
      changed: done.changed,
      position: done.position,
      ...(done.changed ? {} : { note: 'already so: nothing changed' }),
    }),
  );
}

/** The admin program (commander); `parseAsync` runs a command. */
export const program = new Command('admin')
  .description(
    'Administer organizations, credits, API keys, operator switches and backups (PACKING_DATA_DIR, default ./data)',
  )
  .showHelpAfterError()
  // Usage errors come back as CommanderError (exit 2 below) instead of exiting inside commander.
  .exitOverride();

program
  .command('create-org')
  .description('create an organization with an owner, an active API subscription and its credits; prints its id')
  .requiredOption('--name <name>', 'organization name')
  .option('--owner <name>', 'owner member name', 'Owner')
  .option('--credits <credits>', 'subscription credits granted now', positive, 1000)
  .option('--expires-at <time>', 'RFC 3339 end of the subscription period (default: one year)')
  .option('--axle-access', 'enable the axle fields and enforce_axle (spec Vehicle axle fields)', false)
  .action(async (o: { name: string; owner: string; credits: number; expiresAt?: string; axleAccess: boolean }) => {
    const raw = o.expiresAt ?? new Date(Date.now() + 365 * 86_400_000).toISOString();
    if (Number.isNaN(Date.parse(raw))) throw new Error(`not a timestamp: ${raw}`);
    const expiresAt = new Date(raw).toISOString();
    const org = await provisionOrganization(await eventStore(), {
      name: o.name,
      ownerName: o.owner,
      subscriptionCredits: o.credits,
      expiresAt,
      now: now(),
      axleAccess: o.axleAccess,
    });
    console.log(
      JSON.stringify({
        org_id: org.orgId,
        owner_id: org.ownerId,
        subscription_credits: o.credits,
        subscription_expires_at: expiresAt,
        axle_access: o.axleAccess,
      }),
    );
  });

program
  .command('add-credits')
  .description('add purchased credits to an organization (they never expire)')
  .requiredOption('--org <id>', 'organization id')
  .requiredOption('--credits <credits>', 'credits bought', positive)
  .action(async (o: { org: string; credits: number }) => {
    await ownerOf(o.org);
    await purchaseCredits(await eventStore(), o.org, o.credits, now());
    console.log(JSON.stringify({ org_id: o.org, purchased_credits: o.credits }));
  });

program
  .command('grant-subscription')
  .description('start a new subscription period with its credits (replaces the leftover subscription credits)')
  .requiredOption('--org <id>', 'organization id')
  .requiredOption('--credits <credits>', 'subscription credits for the period', positive)
  .option('--expires-at <time>', 'RFC 3339 end of the period (default: one year)')
  .action(async (o: { org: string; credits: number; expiresAt?: string }) => {
    await ownerOf(o.org);
    const expiresAt = o.expiresAt ?? new Date(Date.now() + 365 * 86_400_000).toISOString();
    if (Number.isNaN(Date.parse(expiresAt))) throw new Error(`not a timestamp: ${expiresAt}`);
    await grantSubscription(await eventStore(), o.org, o.credits, new Date(expiresAt).toISOString(), now());
    console.log(JSON.stringify({ org_id: o.org, subscription_credits: o.credits, subscription_expires_at: expiresAt }));
  });

program
  .command('end-subscription')
  .description("end the organization's subscription now (its keys then get 403 subscription_inactive)")
  .requiredOption('--org <id>', 'organization id')
  .action(async (o: { org: string }) => {
    await ownerOf(o.org);
    await endSubscription(await eventStore(), o.org, now());
    console.log(JSON.stringify({ org_id: o.org, subscription: 'ended' }));
  });

program
  .command('create-key')
  .description('create an API key with every scope; prints its secret once (only a hash is stored)')
  .requiredOption('--org <id>', 'organization id')
  .option('--member <id>', 'member the key acts for (default: the owner)')
  .option('--name <name>', 'key name', 'api')
  .option('--expires-at <time>', 'RFC 3339 time the key stops working (401 key_expired)')
  .option('--allow-ip <ip...>', 'IPs or CIDR ranges allowed to call (403 ip_not_allowed for others)')
  .action(async (o: { org: string; member?: string; name: string; expiresAt?: string; allowIp?: string[] }) => {
    const memberId = o.member ?? (await ownerOf(o.org));
    if (o.expiresAt !== undefined && Number.isNaN(Date.parse(o.expiresAt)))
      throw new Error(`not a timestamp: ${o.expiresAt}`);
    const expiresAt = o.expiresAt !== undefined ? new Date(o.expiresAt).toISOString() : null;
    const key = await createApiKey(await eventStore(), {
      orgId: o.org,
      memberId,
      name: o.name,
      now: now(),
      expiresAt,
      allowedIps: o.allowIp ?? [],
    });
    console.log(
      JSON.stringify({
        key_id: key.keyId,
        secret: key.secret,
        expires_at: expiresAt,
        allowed_ips: o.allowIp ?? [],
        note: 'shown once; only a hash is stored',
      }),
    );
  });

/**
 * The base URL of invitation links: --base-url, else PUBLIC_BASE_URL, else the address the
 * service running on the data dir wrote there (service/service-address.ts); with none running, the
 * default address (PORT, else 8080, on localhost) and a hint on stderr.
 */
function invitationBase(given: string | undefined): string {
  const chosen = given ?? serviceAddressFromEnvironment().publicBaseUrl ?? runningServiceUrl(dataDir());
  if (chosen) return chosen.replace(/\/+$/, '');
  const fallback = `http://localhost:${serviceAddressFromEnvironment().port}`;
  console.error(
    `note: no service is running on the data dir ${dataDir()}, so the link assumes ${fallback}; start the service (npm start) on this data dir, ` +
      'or give --base-url (or PUBLIC_BASE_URL) with the address people open',
  );
  return fallback;
}

program
  .command('invite')
  .description('invite an email into the web app; prints the invitation URL once (valid 7 days, one use)')
  .requiredOption('--org <id>', 'organization id')
  .requiredOption('--email <email>', 'email address of the person invited')
  .option(
    '--role <role>',
    "owner or member; owner: the organization's owner member that has no email yet gets this email and the password chosen on acceptance",
    'member',
  )
  .option(
    '--base-url <url>',
    'public URL of the service (default PUBLIC_BASE_URL, else the address of the service running on the data dir)',
  )
  .action(async (o: { org: string; email: string; role: string; baseUrl?: string }) => {
    if (o.role !== 'owner' && o.role !== 'member')
      throw new InvalidArgumentError(`--role must be owner or member, not ${o.role}`);
    if (!/^[^\s@]+@[^\s@]+$/.test(o.email)) throw new InvalidArgumentError(`not an email address: ${o.email}`);
    const base = invitationBase(o.baseUrl);
    const issued = await issueInvitation(await eventStore(), {
      orgId: o.org,
      email: o.email,
      role: o.role,
      now: now(),
      actor: serviceActor('admin'),
    });
    console.log(
      JSON.stringify({
        invitation_id: issued.invitationId,
        email: issued.email,
        role: issued.role,
        member_id: issued.memberId,
        expires_at: issued.expiresAt,
        url: `${base}${invitationPath(issued.token)}`,
        note: 'shown once; only a hash of the token is stored',
      }),
    );
  });

program
  .command('revoke-key')
  .description('revoke an API key: it stops at once (401 key_revoked)')
  .requiredOption('--org <id>', 'organization id')
  .requiredOption('--key <id>', 'key id (key_…)')
  .action(async (o: { org: string; key: string }) => {
    await revokeApiKey(await eventStore(), o.org, o.key, now());
    console.log(JSON.stringify({ key_id: o.key, revoked: true }));
  });

program
  .command('rotate-key')
  .description('give an API key a new secret with the same settings; prints it once, the old secret stops')
  .requiredOption('--org <id>', 'organization id')
  .requiredOption('--key <id>', 'key id (key_…)')
  .option(
    '--prefix <prefix>',
    'prefix of the secret to replace, as list-keys shows it: refused (conflict) when the key has another secret by now',
  )
  .action(async (o: { org: string; key: string; prefix?: string }) => {
    const store = await eventStore();
    // The rotation names the secret it replaces (the one given by --prefix, else the one the log
    // has now), so a rotation by someone else in between is refused instead of chained.
    const current = await currentKeySecret(store, o.org, o.key);
    if (o.prefix !== undefined && o.prefix !== current.prefix) {
      throw new DomainError(
        'conflict',
        `API key ${o.key} no longer has the secret ${o.prefix}…: it was rotated since (now ${current.prefix}…); check list-keys and retry`,
      );
    }
    const rotated = await rotateApiKey(store, { orgId: o.org, keyId: o.key, expectedHash: current.hash, now: now() });
    console.log(JSON.stringify({ key_id: o.key, secret: rotated.secret, note: 'shown once; the old secret stopped' }));
  });

program
  .command('list-keys')
  .requiredOption('--org <id>', 'organization id')
  .description("the organization's API keys (never their secrets): id, name, prefix, scopes, settings, state")
  .action(async (o: { org: string }) => {
    const keys = new Map<string, Record<string, unknown>>();
    for (const e of await (await eventStore()).readStream(orgStream(o.org))) {
      const event = { type: e.type, data: e.data } as OrganizationEvent;
      if (event.type === 'ApiKeyCreated') {
        const d = event.data;
        keys.set(d.keyId, {
          key_id: d.keyId,
          name: d.name,
          prefix: d.prefix,
          scopes: d.scopes,
          member_id: d.memberId,
          created_at: d.createdAt,
          expires_at: d.expiresAt ?? null,
          allowed_ips: d.allowedIps ?? [],
          state: 'active',
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

program
  .command('revoke-links')
  .description(
    'revoke every signed link (3D viewer, PDF) of a job issued so far: they answer 404 not_found; links the job shows afterwards work',
  )
  .argument('<job>', 'job id (job_…)')
  .action(async (job: string) => {
    const revoked = await revokeJobLinks(await eventStore(), job, serviceActor('admin'), now());
    console.log(
      JSON.stringify({
        job_id: revoked.jobId,
        links_revoked_at: revoked.revokedAt,
        link_generation: revoked.generation,
      }),
    );
  });

program
  .command('list-orgs')
  .description('every organization: id, name, creation time (one JSON line each)')
  .action(async () => {
    for await (const e of logEvents(await eventStore())) {
      if (e.type === 'OrganizationCreated') {
        const d = e.data as { orgId: string; name: string; createdAt: string };
        console.log(JSON.stringify({ org_id: d.orgId, name: d.name, created_at: d.createdAt }));
      }
    }
  });

program
  .command('maintenance')
  .description(
    'maintenance mode for the whole service: while on, every /v1 call answers 503 api_disabled with Retry-After and GET /health says status "maintenance" (still 200)',
  )
  .addArgument(
    new Argument('<state>', 'on: start maintenance (or change its message); off: end it').choices(['on', 'off']),
  )
  .option('--message <text>', 'shown in the 503 answers and on /health', 'scheduled maintenance')
  .option(
    '--retry-after <seconds>',
    'Retry-After of the 503 answers, whole seconds',
    seconds,
    MAINTENANCE_RETRY_AFTER_S,
  )
  .action(async (state: string, o: { message: string; retryAfter: number }) => {
    const done = await setMaintenance(
      await eventStore(),
      state === 'on' ? { message: o.message, retryAfterSeconds: o.retryAfter } : null,
      now(),
    );
    printSwitched(
      { maintenance: state, ...(state === 'on' ? { message: o.message, retry_after: o.retryAfter } : {}) },
      done,
    );
  });

program
  .command('disable-api')
  .description(
    'switch the API off for one organization: its keys get 503 api_disabled with Retry-After (others are not affected)',
  )
  .requiredOption('--org <id>', 'organization id')
  .option(
    '--message <text>',
    'shown in the 503 answers',
    'the API is switched off for this organization; contact support',
  )
  .option(
    '--retry-after <seconds>',
    'Retry-After of the 503 answers, whole seconds',
    seconds,
    ORG_DISABLED_RETRY_AFTER_S,
  )
  .action(async (o: { org: string; message: string; retryAfter: number }) => {
    await mustExist(o.org);
    printSwitched(
      { org_id: o.org, api: 'disabled', message: o.message, retry_after: o.retryAfter },
      await setOrganizationApi(
        await eventStore(),
        o.org,
        { message: o.message, retryAfterSeconds: o.retryAfter },
        now(),
      ),
    );
  });

program
  .command('enable-api')
  .description('switch the API on again for an organization after disable-api')
  .requiredOption('--org <id>', 'organization id')
  .action(async (o: { org: string }) => {
    await mustExist(o.org);
    printSwitched({ org_id: o.org, api: 'enabled' }, await setOrganizationApi(await eventStore(), o.org, null, now()));
  });

program
  .command('suspend-org')
  .description(
    'suspend an organization: its keys get 403 account_inactive until reactivate-org (jobs already queued still run)',
  )
  .requiredOption('--org <id>', 'organization id')
  .option('--reason <text>', 'why, kept in the event log', 'suspended by the operator')
  .action(async (o: { org: string; reason: string }) => {
    await mustExist(o.org);
    printSwitched(
      { org_id: o.org, suspended: true },
      await setOrganizationSuspended(await eventStore(), o.org, o.reason, now()),
    );
  });

program
  .command('reactivate-org')
  .description('lift the suspension of an organization')
  .requiredOption('--org <id>', 'organization id')
  .action(async (o: { org: string }) => {
    await mustExist(o.org);
    printSwitched(
      { org_id: o.org, suspended: false },
      await setOrganizationSuspended(await eventStore(), o.org, null, now()),
    );
  });

program
  .command('backup')
  .description(
    'online backup of the embedded data dir while the service runs (SQLite backup API, no lock taken): read-models.db when present, then events.db, signing-key and demo-api-key, each 0600, into a new directory (0700). Restore: docs/operations.md "Backup and restore"',
  )
  .requiredOption('--to <dir>', 'directory to write; made when missing, must be empty')
  .action(async (o: { to: string }) => {
    if (eventStoreConfig().kind !== 'sqlite') {
      throw new BackupRefused('backup copies the embedded SQLite data dir; back EventStoreDB up with its own tools');
    }
    const report = await backupDataDir(dataDir(), o.to);
    console.log(
      JSON.stringify({ from: dataDir(), to: report.to, events_head: report.eventsHead, files: report.files }),
    );
  });

program
  .command('rebuild-read-models')
  .description(
    'rebuild the read models from the whole event log. SQLite (default): <data dir>/read-models.db, the service stopped (it takes the data dir lock); builds read-models.db.rebuild and puts it in place when complete, so an interrupted rebuild leaves the old file. MongoDB (PACKING_READ_STORE=mongodb, MONGODB_URL, MONGODB_DATABASE): beside the running services, into a fresh generation of collections, then switches the stamp; projectors and API processes move to it',
  )
  .action(async () => {
    const mongo = mongoReadStoreConfig();
    if (mongo) {
      const { MongoReadStore } = await import('../adapters/mongodb/read-store.js');
      const { rebuildMongoReadModels } = await import('../service/mongo-read-models.js');
      const reads = await MongoReadStore.connect(mongo.url, mongo.database, {});
      try {
        const report = await rebuildMongoReadModels(await eventStore(), reads);
        console.log(
          JSON.stringify({
            database: mongo.database,
            generation: report.generation,
            replaced: report.replaced ?? null,
            position: report.position,
            ms: report.ms,
          }),
        );
      } finally {
        await reads.close();
      }
      return;
    }
    const report = await rebuildReadModels(await eventStore(), dataDir());
    console.log(JSON.stringify({ file: report.file, position: report.position, ms: report.ms }));
  });

program
  .command('scavenge')
  .description(
    'EventStoreDB only: start a scavenge on the node of EVENTSTORE_URL (a user in $ops or $admins), which rewrites the chunk files without the events of deleted job bodies; prints the scavenge id. Until one has run, a body deleted by retention is hidden but still on disk. In a cluster, run it once per node. Refused on the embedded SQLite store, which erases at deletion',
  )
  .option(
    '--threads <n>',
    `threads the server scavenges with, 1 to ${MAX_SCAVENGE_THREADS}`,
    wholeAtLeast(1, MAX_SCAVENGE_THREADS),
    1,
  )
  .option('--start-from-chunk <n>', 'first chunk file to scavenge (0: all)', wholeAtLeast(0), 0)
  .action(async (o: { threads: number; startFromChunk: number }) => {
    const started = await scavengeEventStore(eventStoreConfig(), o);
    console.log(
      JSON.stringify({
        scavenge_id: started.scavengeId,
        result: started.result,
        threads: o.threads,
        start_from_chunk: o.startFromChunk,
      }),
    );
  });

/** Runs the program on `argv`; exit code 1 on a refused command, 2 on bad usage or an unusable store. */
async function main(argv: string[]): Promise<void> {
  try {
    await program.parseAsync(argv);
  } catch (err) {
    if (err instanceof CommanderError) {
      // Commander printed the help or the usage error already.
      process.exitCode = err.exitCode === 0 ? 0 : 2;
      return;
    }
    console.error(`admin: ${(err as Error).message}`);
    process.exitCode =
      err instanceof BackupRefused ||
      err instanceof ScavengeRefused ||
      err instanceof ProfileError ||
      err instanceof InvalidArgumentError ||
      err instanceof StoreUnavailable
        ? 2
        : 1;
  } finally {
    await opened?.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) await main(process.argv);
