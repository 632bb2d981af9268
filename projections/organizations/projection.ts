/**
 * Organizations and API keys read models (collections `organizations`, `api_keys`), used by
 * authentication: a key is found by the SHA-256 hash of its secret.
 */
import type { OrgLimits } from '../../domain/organization/limits.js';
import type { OrganizationEvent, Scope } from '../../domain/organization/organization.js';
import type { RecordedEvent } from '../../domain/ports/event-store.js';
import type { FieldPath, IndexSpec, ReadStore } from '../../domain/ports/read-store.js';
import type { Projection } from '../projection.js';
import { orgIdOfStream } from '../../domain/organization/streams.js';

export const ORGANIZATIONS = 'organizations';
export const API_KEYS = 'api_keys';
/** Invitations to the web app by the SHA-256 of their token. */
export const INVITATIONS = 'invitations';

/** A member of an organization as the read model holds it. */
export interface MemberDocument {
  name: string;
  role: 'owner' | 'member';
  /** The email the member signs in with; absent before they accepted an invitation. */
  email?: string;
  /** When the member was added, RFC 3339 (absent in documents made before). */
  joinedAt?: string;
}

/** An invitation; `id` is the SHA-256 hex of its token. */
export interface InvitationDocument {
  id: string;
  invitationId: string;
  orgId: string;
  email: string;
  role: 'owner' | 'member';
  memberId: string;
  expiresAt: string;
  /** When it was issued (RFC 3339) and by whom (a member id, or `service:admin`). */
  issuedAt: string;
  issuedBy: string;
  /** `password_reset`: the owner's reset of an existing member's password; null: an invitation to join. */
  purpose: 'password_reset' | null;
  /** When it was used, or null. */
  acceptedAt: string | null;
  /** When the owner withdrew it (or its member was removed), or null. */
  revokedAt: string | null;
  position: number;
}

/** Invitations `orgId, acceptedAt, revokedAt`: the owner's list of pending ones. */
export const INVITATION_INDEXES: readonly IndexSpec<FieldPath<InvitationDocument>>[] = [
  {
    keys: [
      ['orgId', 1],
      ['acceptedAt', 1],
      ['revokedAt', 1],
    ],
  },
];

export interface OrganizationDocument {
  id: string;
  name: string;
  createdAt: string;
  limits: OrgLimits;
  axleAccess: boolean;
  /** Suspended by the operator (403 account_inactive). */
  suspended: boolean;
  /** The API switched off for this organization by the operator (503 api_disabled); absent or null: on. */
  apiDisabled?: { message: string; retryAfterSeconds: number; since: string } | null;
  subscription: { plan: string; apiAccess: boolean; expiresAt: string | null; active: boolean } | null;
  members: Record<string, MemberDocument>;
  /** Removed members by id, with their name (keys they created still show who made them). */
  formerMembers?: Record<string, { name: string; removedAt: string }>;
  /** How people see lengths and weights (web app, viewer, PDF): cm/kg or in/lb; absent: metric. The API stays cm/kg. */
  displayUnits?: 'metric' | 'imperial';
  position: number;
}

export interface ApiKeyDocument {
  /** SHA-256 hex of the secret. */
  id: string;
  keyId: string;
  orgId: string;
  name: string;
  prefix: string;
  scopes: Scope[];
  memberId: string;
  revoked: boolean;
  /** Set when the secret stopped because the key was rotated (revoked is then true too). */
  rotated?: boolean;
  createdAt: string;
  /** RFC 3339 expiry; absent or null: none. */
  expiresAt?: string | null;
  /** IPs and CIDR ranges allowed to call; absent or empty: any. */
  allowedIps?: string[];
}

export const organizationsProjection: Projection = {
  name: 'organizations',
  async apply(recorded: RecordedEvent, store: ReadStore): Promise<void> {
    const orgId = orgIdOfStream(recorded.stream);
    if (orgId === undefined) return;
    const orgs = store.collection<OrganizationDocument>(ORGANIZATIONS);
    const event = { type: recorded.type, data: recorded.data } as OrganizationEvent;
    if (event.type === 'OrganizationCreated') {
      if (await orgs.get(orgId)) return;
      await orgs.put({
        id: orgId,
        name: event.data.name,
        createdAt: event.data.createdAt,
        limits: event.data.limits,
        axleAccess: event.data.axleAccess,
        suspended: false,
        apiDisabled: null,
        subscription: null,
        members: {},
        position: recorded.position,
      });
      return;
    }
    const org = await orgs.get(orgId);
    if (!org || recorded.position <= org.position) return;
    org.position = recorded.position;
    switch (event.type) {
      case 'MemberAdded':
        org.members[event.data.userId] = {
          name: event.data.name,
          role: event.data.role,
          joinedAt: event.data.addedAt,
          ...(event.data.email ? { email: event.data.email } : {}),
        };
        break;
      case 'InvitationIssued':
        await store.collection<InvitationDocument>(INVITATIONS).put({
          id: event.data.tokenHash,
          invitationId: event.data.invitationId,
          orgId,
          email: event.data.email,
          role: event.data.role,
          memberId: event.data.memberId,
          expiresAt: event.data.expiresAt,
          issuedAt: event.data.issuedAt,
          issuedBy: event.data.by,
          purpose: event.data.purpose ?? null,
          acceptedAt: null,
          revokedAt: null,
          position: recorded.position,
        });
        break;
      case 'InvitationRevoked': {
        const invitations = store.collection<InvitationDocument>(INVITATIONS);
        const invitation = await invitations.get(event.data.tokenHash);
        if (invitation)
          await invitations.put({ ...invitation, revokedAt: event.data.revokedAt, position: recorded.position });
        break;
      }
      case 'InvitationAccepted': {
        const invitations = store.collection<InvitationDocument>(INVITATIONS);
        const invitation = await invitations.get(event.data.tokenHash);
        if (invitation)
          await invitations.put({ ...invitation, acceptedAt: event.data.acceptedAt, position: recorded.position });
        const member = org.members[event.data.memberId];
        if (member) org.members[event.data.memberId] = { ...member, name: event.data.name, email: event.data.email };
        break;
      }
      case 'MemberRemoved':
        delete org.members[event.data.userId];
        org.formerMembers = {
          ...org.formerMembers,
          [event.data.userId]: { name: event.data.name, removedAt: event.data.removedAt },
        };
        break;
      case 'SubscriptionActivated':
        org.subscription = {
          plan: event.data.plan,
          apiAccess: event.data.apiAccess,
          expiresAt: event.data.expiresAt,
          active: true,
        };
        break;
      case 'SubscriptionEnded':
        if (org.subscription) org.subscription.active = false;
        break;
      case 'OrganizationSuspended':
        org.suspended = true;
        break;
      case 'OrganizationReactivated':
        org.suspended = false;
        break;
      case 'OrganizationApiDisabled':
        org.apiDisabled = {
          message: event.data.message,
          retryAfterSeconds: event.data.retryAfterSeconds,
          since: event.data.disabledAt,
        };
        break;
      case 'OrganizationApiEnabled':
        org.apiDisabled = null;
        break;
      case 'DisplayUnitsChosen':
        org.displayUnits = event.data.displayUnits;
        break;
      case 'ApiKeyCreated':
        await store.collection<ApiKeyDocument>(API_KEYS).put({
          id: event.data.hash,
          keyId: event.data.keyId,
          orgId,
          name: event.data.name,
          prefix: event.data.prefix,
          scopes: event.data.scopes,
          memberId: event.data.memberId,
          revoked: false,
          createdAt: event.data.createdAt,
          expiresAt: event.data.expiresAt ?? null,
          allowedIps: event.data.allowedIps ?? [],
        });
        break;
      case 'ApiKeyRevoked': {
        const keys = store.collection<ApiKeyDocument>(API_KEYS);
        const key = await keys.get(event.data.hash);
        if (key) await keys.put({ ...key, revoked: true });
        break;
      }
      case 'ApiKeyRotated': {
        const keys = store.collection<ApiKeyDocument>(API_KEYS);
        const old = await keys.get(event.data.previousHash);
        if (old) {
          await keys.put({ ...old, revoked: true, rotated: true });
          await keys.put({ ...old, id: event.data.hash, prefix: event.data.prefix, revoked: false, rotated: false });
        }
        break;
      }
      default:
        return;
    }
    await orgs.put(org);
  },
};
