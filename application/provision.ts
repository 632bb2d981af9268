/**
 * Provisioning through the domain commands: organizations (with owner, subscription and
 * credits) and API keys. Used by start-up (the demo organization) and `npm run admin`.
 */
import { serviceActor, type Actor } from '../domain/decider/actor.js';
import { DomainError } from '../domain/decider/decider.js';
import { handleCommand } from '../domain/decider/handle.js';
import { ledgerDecider } from '../domain/ledger/decide.js';
import { fromCredits } from '../domain/ledger/money.js';
import { ledgerStream } from '../domain/ledger/streams.js';
import { organizationDecider } from '../domain/organization/decide.js';
import { DEFAULT_LIMITS, type OrgLimits } from '../domain/organization/limits.js';
import { SCOPES, type OrganizationEvent, type Scope } from '../domain/organization/organization.js';
import { orgStream } from '../domain/organization/streams.js';
import type { EventStore } from '../domain/ports/event-store.js';
import { generateApiKey } from './api-key.js';
import { checkAllowList } from './ip-allowlist.js';
import { newId } from './id.js';

/** Provisioning is the operator's (the admin command, or the demo organization at first start). */
const ADMIN = serviceActor('admin');

export interface NewOrganization {
  name: string;
  ownerName: string;
  /** Subscription credits granted now (credits). */
  subscriptionCredits: number;
  /** RFC 3339 end of the subscription period, or null for none. */
  expiresAt: string | null;
  limits?: Partial<OrgLimits>;
  axleAccess?: boolean;
  now: string;
}

/** Creates an organization with an owner, an active API subscription and its credits. Returns the last log position too. */
export async function provisionOrganization(
  store: EventStore,
  org: NewOrganization,
): Promise<{ orgId: string; ownerId: string; position: number }> {
  const orgId = newId('org');
  const ownerId = newId('usr');
  const stream = orgStream(orgId);
  const { now } = org;
  const metadata = { now, actor: ADMIN };
  await handleCommand(store, stream, organizationDecider, {
    type: 'CreateOrganization',
    data: { orgId, name: org.name, limits: { ...DEFAULT_LIMITS, ...org.limits }, axleAccess: org.axleAccess ?? false },
    metadata,
  });
  await handleCommand(store, stream, organizationDecider, {
    type: 'AddMember',
    data: { userId: ownerId, name: org.ownerName, role: 'owner' },
    metadata,
  });
  const position = await grantSubscription(store, orgId, org.subscriptionCredits, org.expiresAt, now);
  return { orgId, ownerId, position };
}

/**
 * Creates an API key for a member (every scope unless given). Returns the secret: show it once.
 * `actor`: who asks (the operator unless given; the owner in the web app's console).
 */
export async function createApiKey(
  store: EventStore,
  key: {
    orgId: string;
    memberId: string;
    name: string;
    scopes?: Scope[];
    now: string;
    expiresAt?: string | null;
    allowedIps?: string[];
    actor?: Actor;
  },
): Promise<{ keyId: string; secret: string; position: number }> {
  const { secret, hash, prefix } = generateApiKey();
  const keyId = newId('key');
  const done = await handleCommand(store, orgStream(key.orgId), organizationDecider, {
    type: 'CreateApiKey',
    data: {
      keyId,
      hash,
      prefix,
      name: key.name,
      scopes: key.scopes ?? [...SCOPES],
      memberId: key.memberId,
      expiresAt: key.expiresAt ?? null,
      allowedIps: key.allowedIps ? checkAllowList(key.allowedIps) : [],
    },
    metadata: { now: key.now, actor: key.actor ?? ADMIN },
  });
  return { keyId, secret, position: done.position };
}

/** Revokes a key: it stops at once (401 key_revoked). Throws DomainError `not_found` or `conflict` for unknown or revoked keys. */
export async function revokeApiKey(
  store: EventStore,
  orgId: string,
  keyId: string,
  now: string,
  actor: Actor = ADMIN,
): Promise<number> {
  const done = await handleCommand(store, orgStream(orgId), organizationDecider, {
    type: 'RevokeApiKey',
    data: { keyId },
    metadata: { now, actor },
  });
  return done.position;
}

/**
 * Rotates a key: a new secret (returned once, with its hash and prefix) with the same id, scopes,
 * expiry and allowlist; the old secret stops at once. `expectedHash` is the hash of the secret the
 * caller means to replace, as it read the key: when the key was rotated since, nothing changes
 * and DomainError `conflict` says to reload and retry, so of concurrent rotations exactly one
 * succeeds. Throws DomainError `not_found` or `conflict` for unknown or revoked keys.
 */
export async function rotateApiKey(
  store: EventStore,
  rotation: { orgId: string; keyId: string; expectedHash: string; now: string; actor?: Actor },
): Promise<{ secret: string; hash: string; prefix: string; position: number }> {
  const { secret, hash, prefix } = generateApiKey();
  const { orgId, keyId, expectedHash, now, actor = ADMIN } = rotation;
  const done = await handleCommand(store, orgStream(orgId), organizationDecider, {
    type: 'RotateApiKey',
    data: { keyId, expectedHash, hash, prefix },
    metadata: { now, actor },
  });
  return { secret, hash, prefix, position: done.position };
}

/**
 * The current secret of key `keyId` as the organization's stream has it now (a revoked key's
 * too): its hash and display prefix, from one read of the stream. For a caller that holds no
 * earlier read of the key (the admin command). Throws DomainError `not_found` for an unknown
 * organization or key, as the rotation would.
 */
export async function currentKeySecret(
  store: EventStore,
  orgId: string,
  keyId: string,
): Promise<{ hash: string; prefix: string }> {
  let exists = false;
  let secret: { hash: string; prefix: string } | undefined;
  for (const recorded of await store.readStream(orgStream(orgId))) {
    const event = { type: recorded.type, data: recorded.data } as OrganizationEvent;
    if (event.type === 'OrganizationCreated') exists = true;
    if ((event.type === 'ApiKeyCreated' || event.type === 'ApiKeyRotated') && event.data.keyId === keyId) {
      secret = { hash: event.data.hash, prefix: event.data.prefix };
    }
  }
  if (!exists) throw new DomainError('not_found', 'no such organization');
  if (!secret) throw new DomainError('not_found', `no API key ${keyId} in the organization`);
  return secret;
}

/** Adds purchased credits (never expire). */
export async function purchaseCredits(store: EventStore, orgId: string, credits: number, now: string): Promise<number> {
  const done = await handleCommand(store, ledgerStream(orgId), ledgerDecider, {
    type: 'PurchaseCredits',
    data: { amount: fromCredits(credits) },
    metadata: { now, actor: ADMIN },
  });
  return done.position;
}

/**
 * Starts (or renews) the organization's API subscription for a period: its subscription credits
 * are replaced by `credits`, usable until `expiresAt`.
 */
export async function grantSubscription(
  store: EventStore,
  orgId: string,
  credits: number,
  expiresAt: string | null,
  now: string,
): Promise<number> {
  await handleCommand(store, orgStream(orgId), organizationDecider, {
    type: 'ActivateSubscription',
    data: { plan: 'business', apiAccess: true, expiresAt },
    metadata: { now, actor: ADMIN },
  });
  const done = await handleCommand(store, ledgerStream(orgId), ledgerDecider, {
    type: 'GrantSubscriptionCredits',
    data: { amount: fromCredits(credits), expiresAt },
    metadata: { now, actor: ADMIN },
  });
  return done.position;
}

/** Ends the subscription now: the API answers 403 subscription_inactive; leftover subscription credits expire. */
export async function endSubscription(store: EventStore, orgId: string, now: string): Promise<number> {
  await handleCommand(store, orgStream(orgId), organizationDecider, {
    type: 'EndSubscription',
    data: {},
    metadata: { now, actor: ADMIN },
  });
  const done = await handleCommand(store, ledgerStream(orgId), ledgerDecider, {
    type: 'ExpireSubscriptionCredits',
    data: {},
    metadata: { now, actor: ADMIN },
  });
  return done.position;
}
