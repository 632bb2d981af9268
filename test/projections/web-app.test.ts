/**
 * The web app's read models: invitations and members in `organizations`, sessions in
 * `web_sessions`. Applying every event twice leaves the documents as applying them once (STYLE).
 */
import t from 'tap';
import { MemoryReadStore } from '../../adapters/memory/read-store.js';
import type { RecordedEvent } from '../../domain/ports/event-store.js';
import { DEFAULT_LIMITS } from '../../domain/organization/limits.js';
import {
  INVITATIONS,
  ORGANIZATIONS,
  organizationsProjection,
  type InvitationDocument,
  type OrganizationDocument,
} from '../../projections/organizations/projection.js';
import { WEB_SESSIONS, sessionsProjection, type WebSessionDocument } from '../../projections/sessions/projection.js';

const NOW = '2026-11-22T10:00:00.000Z';
const LATER = '2026-11-22T11:00:00.000Z';
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

const events: RecordedEvent[] = [
  rec('org-o1', 'OrganizationCreated', {
    orgId: 'o1',
    name: 'O',
    limits: DEFAULT_LIMITS,
    axleAccess: false,
    createdAt: NOW,
  }),
  rec('org-o1', 'MemberAdded', { userId: 'usr_o', name: 'Owner', role: 'owner', addedAt: NOW }),
  rec('org-o1', 'InvitationIssued', {
    invitationId: 'inv_1',
    tokenHash: 'th1',
    email: 'o@example.com',
    role: 'owner',
    memberId: 'usr_o',
    expiresAt: LATER,
    issuedAt: NOW,
    by: 'service:admin',
  }),
  rec('org-o1', 'InvitationAccepted', {
    invitationId: 'inv_1',
    tokenHash: 'th1',
    memberId: 'usr_o',
    email: 'o@example.com',
    name: 'Olga',
    acceptedAt: NOW,
  }),
  rec('org-o1', 'MemberAdded', { userId: 'usr_m', name: 'Max', role: 'member', addedAt: NOW, email: 'm@example.com' }),
  rec('session-ses_1', 'SessionStarted', {
    sessionId: 'ses_1',
    tokenHash: 'sh1',
    orgId: 'o1',
    memberId: 'usr_m',
    startedAt: NOW,
    expiresAt: LATER,
  }),
  rec('session-ses_1', 'SessionRefreshed', { sessionId: 'ses_1', tokenHash: 'sh1', at: LATER }),
  rec('org-o1', 'MemberRemoved', {
    userId: 'usr_m',
    name: 'Max',
    email: 'm@example.com',
    removedAt: LATER,
    by: 'usr_o',
  }),
  rec('session-ses_1', 'SessionEnded', {
    sessionId: 'ses_1',
    tokenHash: 'sh1',
    reason: 'member_removed',
    endedAt: LATER,
  }),
];

async function fold(times: number): Promise<MemoryReadStore> {
  const store = new MemoryReadStore();
  for (let i = 0; i < times; i++) {
    for (const e of events) {
      await organizationsProjection.apply(e, store);
      await sessionsProjection.apply(e, store);
    }
  }
  return store;
}

t.test('members, invitations and sessions; twice is once', async (t) => {
  const once = await fold(1);
  const org = await once.collection<OrganizationDocument>(ORGANIZATIONS).get('o1');
  t.same(org?.members, { usr_o: { name: 'Olga', role: 'owner', joinedAt: NOW, email: 'o@example.com' } });
  t.same(org?.formerMembers, { usr_m: { name: 'Max', removedAt: LATER } });
  t.match(await once.collection<InvitationDocument>(INVITATIONS).get('th1'), {
    invitationId: 'inv_1',
    orgId: 'o1',
    acceptedAt: NOW,
    memberId: 'usr_o',
  });
  t.match(await once.collection<WebSessionDocument>(WEB_SESSIONS).get('sh1'), {
    sessionId: 'ses_1',
    memberId: 'usr_m',
    lastSeenAt: LATER,
    endedAt: LATER,
    endReason: 'member_removed',
  });
  const twice = await fold(2);
  for (const [name, id] of [
    [ORGANIZATIONS, 'o1'],
    [INVITATIONS, 'th1'],
    [WEB_SESSIONS, 'sh1'],
  ] as const) {
    t.same(await twice.collection(name).get(id), await once.collection(name).get(id), `${name} ${id}`);
  }
});
