/**
 * Web app sessions as commands on the session's stream (domain/session/session.ts): start one
 * for a member, end one, end every session of a member. The cookie and the CSRF token are the
 * web app's edge (api/web-app/web-session.ts); removing a member (application/members.ts) ends
 * their sessions from here.
 */
import { randomBytes } from 'node:crypto';
import { serviceActor, type Actor } from '../domain/decider/actor.js';
import { handleCommand } from '../domain/decider/handle.js';
import { sessionDecider, type SessionEndReason } from '../domain/session/session.js';
import { sessionStream } from '../domain/session/streams.js';
import { sha256Hex } from '../domain/digest.js';
import { WEB_SESSIONS, type WebSessionDocument } from '../projections/sessions/projection.js';
import { newId } from './id.js';
import type { UseCasePorts } from './ports.js';

/** The stored form of a session token: its SHA-256 hex (the read model `web_sessions` is keyed by it). */
export const sessionTokenHash = sha256Hex;

/**
 * Starts a session for a member; resolves with its token (random 256 bits, base64url; shown
 * only in the cookie) and document, once the read model has it.
 */
export async function startSession(
  ports: UseCasePorts,
  orgId: string,
  memberId: string,
  actor: Actor = { id: memberId, name: memberId },
): Promise<{ token: string; session: WebSessionDocument }> {
  const token = randomBytes(32).toString('base64url');
  const tokenHash = sessionTokenHash(token);
  const sessionId = newId('ses');
  const done = await handleCommand(ports.store, sessionStream(sessionId), sessionDecider, {
    type: 'StartSession',
    data: { sessionId, tokenHash, orgId, memberId },
    metadata: { now: ports.clock(), actor },
  });
  await ports.projections.waitFor(done.position);
  const session = await ports.reads.collection<WebSessionDocument>(WEB_SESSIONS).get(tokenHash);
  if (!session) throw new Error(`session ${sessionId} not in the read model after its start`);
  return { token, session };
}

/** Ends a session (no event when it has ended already) and waits for the read model. */
export async function endSession(
  ports: UseCasePorts,
  sessionId: string,
  reason: SessionEndReason,
  actor: Actor = serviceActor('admin'),
): Promise<void> {
  const done = await handleCommand(ports.store, sessionStream(sessionId), sessionDecider, {
    type: 'EndSession',
    data: { reason },
    metadata: { now: ports.clock(), actor },
  });
  await ports.projections.waitFor(done.position);
}

/** Ends every active session of a member (reason `member_removed`). */
export async function endSessionsOfMember(ports: UseCasePorts, memberId: string): Promise<void> {
  const sessions = await ports.reads
    .collection<WebSessionDocument>(WEB_SESSIONS)
    .find({ where: { memberId, endedAt: null } });
  for (const s of sessions) await endSession(ports, s.sessionId, 'member_removed');
}
