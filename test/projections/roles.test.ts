/**
 * Read models of roles: a withdrawn invitation (`revokedAt`), a password change ending the
 * member's other sessions (`password_changed`, the changing session kept, other members' kept),
 * and a disabled webhook endpoint (`disabledAt`, `disabledReason`). Applying every event twice
 * leaves the documents as applying them once (STYLE).
 */
import t from 'tap';
import { MemoryReadStore } from '../../adapters/memory/read-store.js';
import type { RecordedEvent } from '../../domain/ports/event-store.js';
import { DEFAULT_LIMITS } from '../../domain/organization/limits.js';
import {
  INVITATIONS,
  organizationsProjection,
  type InvitationDocument,
} from '../../projections/organizations/projection.js';
import { WEB_SESSIONS, sessionsProjection, type WebSessionDocument } from '../../projections/sessions/projection.js';
import {
  WEBHOOK_ENDPOINTS,
  webhooksProjection,
  type WebhookEndpointDocument,
} from '../../projections/webhooks/projection.js';
import { credentialStream } from '../../domain/credential/streams.js';

const NOW = '2026-11-25T10:00:00.000Z';
const LATER = '2026-11-25T11:00:00.000Z';
const WEEK = '2026-12-02T10:00:00.000Z';
let position = 0;
const rec = (stream: string, type: string, data: unknown): RecordedEvent => ({
  id: `e${++position}`,
  type,
  data,
  metadata: {},
  stream,
  revision: 0,
  position,
  recordedAt: NOW,
});
const started = (sessionId: string, memberId: string) =>
  rec(`session-${sessionId}`, 'SessionStarted', {
    sessionId,
    tokenHash: `${sessionId}-h`,
    orgId: 'o1',
    memberId,
    startedAt: NOW,
    expiresAt: WEEK,
  });
const password = { algorithm: 'scrypt', N: 2, r: 1, p: 1, keyLength: 4, salt: 's', hash: 'h' };

const events: RecordedEvent[] = [
  rec('org-o1', 'OrganizationCreated', {
    orgId: 'o1',
    name: 'O',
    limits: DEFAULT_LIMITS,
    axleAccess: false,
    createdAt: NOW,
  }),
  rec('org-o1', 'MemberAdded', { userId: 'usr_o', name: 'Owner', role: 'owner', addedAt: NOW, email: 'o@example.com' }),
  rec('org-o1', 'InvitationIssued', {
    invitationId: 'inv_1',
    tokenHash: 'th1',
    email: 'a@example.com',
    role: 'member',
    memberId: 'usr_a',
    expiresAt: WEEK,
    issuedAt: NOW,
    by: 'usr_o',
  }),
  rec('org-o1', 'InvitationIssued', {
    invitationId: 'inv_2',
    tokenHash: 'th2',
    email: 'm@example.com',
    role: 'member',
    memberId: 'usr_m',
    expiresAt: WEEK,
    issuedAt: NOW,
    by: 'usr_o',
    purpose: 'password_reset',
  }),
  rec('org-o1', 'InvitationRevoked', { invitationId: 'inv_1', tokenHash: 'th1', revokedAt: LATER, by: 'usr_o' }),
  started('ses_here', 'usr_m'),
  started('ses_there', 'usr_m'),
  started('ses_other', 'usr_o'),
  rec(credentialStream('m@example.com'), 'CredentialPasswordChanged', {
    userId: 'usr_m',
    orgId: 'o1',
    password,
    reason: 'changed',
    keepSessionId: 'ses_here',
    changedAt: LATER,
  }),
  started('ses_after', 'usr_m'),
  rec('webhook-endpoint-whe_1', 'WebhookEndpointRegistered', {
    endpointId: 'whe_1',
    orgId: 'o1',
    url: 'https://example.com/h',
    events: ['job.succeeded'],
    secret: 'whsec_x',
    createdAt: NOW,
    createdBy: { id: 'usr_m', name: 'Max' },
  }),
  rec('webhook-endpoint-whe_1', 'WebhookEndpointDisabled', {
    endpointId: 'whe_1',
    orgId: 'o1',
    reason: 'creator_removed',
    disabledAt: LATER,
    disabledBy: { id: 'usr_o', name: 'Owner' },
  }),
];

async function fold(times: number): Promise<MemoryReadStore> {
  const store = new MemoryReadStore();
  for (let i = 0; i < times; i++) {
    for (const e of events) {
      await organizationsProjection.apply(e, store);
      await sessionsProjection.apply(e, store);
      await webhooksProjection.apply(e, store);
    }
  }
  return store;
}

t.test('withdrawn invitations, sessions ended by a password change, disabled endpoints; twice is once', async (t) => {
  const once = await fold(1);
  const invitations = once.collection<InvitationDocument>(INVITATIONS);
  t.match(await invitations.get('th1'), {
    invitationId: 'inv_1',
    revokedAt: LATER,
    acceptedAt: null,
    purpose: null,
    issuedAt: NOW,
    issuedBy: 'usr_o',
  });
  t.match(await invitations.get('th2'), { invitationId: 'inv_2', revokedAt: null, purpose: 'password_reset' });
  const sessions = once.collection<WebSessionDocument>(WEB_SESSIONS);
  const ended = async (id: string) => {
    const s = await sessions.get(`${id}-h`);
    return [s?.endedAt ?? null, s?.endReason ?? null];
  };
  t.same(await ended('ses_here'), [null, null], 'the session that changed it stays');
  t.same(await ended('ses_there'), [LATER, 'password_changed'], "the member's other session ended");
  t.same(await ended('ses_other'), [null, null], "another member's session stays");
  t.same(await ended('ses_after'), [null, null], 'a session started after the change stays');
  t.match(await once.collection<WebhookEndpointDocument>(WEBHOOK_ENDPOINTS).get('whe_1'), {
    deleted: false,
    disabledAt: LATER,
    disabledReason: 'creator_removed',
    disabledPosition: events.at(-1)!.position,
  });
  const twice = await fold(2);
  for (const [name, id] of [
    [INVITATIONS, 'th1'],
    [INVITATIONS, 'th2'],
    [WEB_SESSIONS, 'ses_here-h'],
    [WEB_SESSIONS, 'ses_there-h'],
    [WEB_SESSIONS, 'ses_after-h'],
    [WEBHOOK_ENDPOINTS, 'whe_1'],
  ] as const) {
    t.same(await twice.collection(name).get(id), await once.collection(name).get(id), `${name} ${id}`);
  }
});
