/**
 * Web app sessions read model (collection `web_sessions`): a session is found by the
 * SHA-256 of its cookie token. Authentication (api/web-app/web-session.ts) reads it on every request
 * that carries the session cookie. A password change (CredentialPasswordChanged) ends the
 * member's other sessions here.
 */
import type { SessionEndReason, SessionEvent } from '../../domain/session/session.js';
import { sessionIdOfStream } from '../../domain/session/streams.js';
import type { CredentialEvent } from '../../domain/credential/credential.js';
import { isCredentialStream } from '../../domain/credential/streams.js';
import type { RecordedEvent } from '../../domain/ports/event-store.js';
import type { ReadCollection, ReadStore } from '../../domain/ports/read-store.js';
import type { Projection } from '../projection.js';

export const WEB_SESSIONS = 'web_sessions';

/** A session; `id` is the SHA-256 hex of the cookie token. Times RFC 3339. */
export interface WebSessionDocument {
  id: string;
  sessionId: string;
  orgId: string;
  memberId: string;
  startedAt: string;
  /** Absolute end (12 h after the start). */
  expiresAt: string;
  /** Last recorded use (the idle timeout counts from it). */
  lastSeenAt: string;
  /** When and why it ended; null while active. */
  endedAt: string | null;
  endReason: SessionEndReason | null;
  position: number;
}

/**
 * Roles: a new password ends every other session of its member, in the same event (no window, no
 * step left to repair): the sessions active when it was stored, except `keepSessionId` (the one
 * that changed it), end with `password_changed`. Applying it again changes nothing.
 */
async function endForPasswordChange(
  recorded: RecordedEvent,
  sessions: ReadCollection<WebSessionDocument>,
): Promise<void> {
  const { userId, keepSessionId, changedAt } = recorded.data as Extract<
    CredentialEvent,
    { type: 'CredentialPasswordChanged' }
  >['data'];
  const active = await sessions.find({ where: { memberId: userId, endedAt: null } });
  for (const s of active) {
    if (s.sessionId === keepSessionId || s.position > recorded.position) continue;
    await sessions.put({ ...s, endedAt: changedAt, endReason: 'password_changed', position: recorded.position });
  }
}

export const sessionsProjection: Projection = {
  name: 'sessions',
  async apply(recorded: RecordedEvent, store: ReadStore): Promise<void> {
    const sessions = store.collection<WebSessionDocument>(WEB_SESSIONS);
    if (recorded.type === 'CredentialPasswordChanged' && isCredentialStream(recorded.stream)) {
      await endForPasswordChange(recorded, sessions);
      return;
    }
    if (sessionIdOfStream(recorded.stream) === undefined) return;
    const event = { type: recorded.type, data: recorded.data } as SessionEvent;
    switch (event.type) {
      case 'SessionStarted': {
        const { sessionId, tokenHash, orgId, memberId, startedAt, expiresAt } = event.data;
        await sessions.put({
          id: tokenHash,
          sessionId,
          orgId,
          memberId,
          startedAt,
          expiresAt,
          lastSeenAt: startedAt,
          endedAt: null,
          endReason: null,
          position: recorded.position,
        });
        return;
      }
      case 'SessionRefreshed': {
        const doc = await sessions.get(event.data.tokenHash);
        if (doc) await sessions.put({ ...doc, lastSeenAt: event.data.at, position: recorded.position });
        return;
      }
      case 'SessionEnded': {
        const doc = await sessions.get(event.data.tokenHash);
        if (doc)
          await sessions.put({
            ...doc,
            endedAt: event.data.endedAt,
            endReason: event.data.reason,
            position: recorded.position,
          });
        return;
      }
    }
  },
};
