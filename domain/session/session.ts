/**
 * A web app session, stream `session-<ses_…>`: started by a sign-in or an accepted
 * invitation, refreshed while used, ended by sign-out, expiry or the member's removal. A
 * password change ends the member's other sessions in the sessions read model, from the
 * credential's CredentialPasswordChanged (`password_changed`, projections/sessions). Only the
 * SHA-256 of the cookie token is stored. Lifetimes: 12 h from the start, 2 h without use.
 */
import { DomainError, type Command, type Decider, type DomainEvent } from '../decider/decider.js';

/** Absolute lifetime of a session, ms (12 h). */
export const SESSION_LIFETIME_MS = 12 * 3600 * 1000;
/** A session unused this long ends, ms (2 h). */
export const SESSION_IDLE_MS = 2 * 3600 * 1000;
/** Use is recorded (SessionRefreshed) at most this often, ms: the idle timeout is exact to within it. */
export const SESSION_REFRESH_MS = 5 * 60 * 1000;

/** Why a session ended. */
export type SessionEndReason = 'signed_out' | 'expired' | 'member_removed' | 'password_changed';

export type SessionEvent =
  | DomainEvent<
      'SessionStarted',
      { sessionId: string; tokenHash: string; orgId: string; memberId: string; startedAt: string; expiresAt: string }
    >
  /** The session was used at `at` (its idle time starts again). */
  | DomainEvent<'SessionRefreshed', { sessionId: string; tokenHash: string; at: string }>
  | DomainEvent<'SessionEnded', { sessionId: string; tokenHash: string; reason: SessionEndReason; endedAt: string }>;

export interface SessionState {
  status: 'none' | 'active' | 'ended';
  sessionId: string;
  tokenHash: string;
  lastSeenAt: string;
}

export type SessionCommand =
  | Command<'StartSession', { sessionId: string; tokenHash: string; orgId: string; memberId: string }>
  | Command<'RefreshSession', Record<string, never>>
  | Command<'EndSession', { reason: SessionEndReason }>;

const initialSession = (): SessionState => ({ status: 'none', sessionId: '', tokenHash: '', lastSeenAt: '' });

function evolveSession(state: SessionState, event: SessionEvent): SessionState {
  switch (event.type) {
    case 'SessionStarted':
      return {
        status: 'active',
        sessionId: event.data.sessionId,
        tokenHash: event.data.tokenHash,
        lastSeenAt: event.data.startedAt,
      };
    case 'SessionRefreshed':
      return { ...state, lastSeenAt: event.data.at };
    case 'SessionEnded':
      return { ...state, status: 'ended' };
  }
}

/**
 * StartSession: 409 conflict on a used id. Refresh and End cause nothing on a session that is not
 * active (idempotent); Refresh nothing either within SESSION_REFRESH_MS of the last recorded use.
 */
function decideSession(command: SessionCommand, state: SessionState): SessionEvent[] {
  const { now } = command.metadata;
  switch (command.type) {
    case 'StartSession': {
      if (state.status !== 'none')
        throw new DomainError('conflict', `session ${command.data.sessionId} exists already`);
      const expiresAt = new Date(Date.parse(now) + SESSION_LIFETIME_MS).toISOString();
      return [{ type: 'SessionStarted', data: { ...command.data, startedAt: now, expiresAt } }];
    }
    case 'RefreshSession': {
      // Requests at once may all ask: one refresh per SESSION_REFRESH_MS is enough.
      const recent = Date.parse(now) - Date.parse(state.lastSeenAt) < SESSION_REFRESH_MS;
      return state.status === 'active' && !recent
        ? [{ type: 'SessionRefreshed', data: { sessionId: state.sessionId, tokenHash: state.tokenHash, at: now } }]
        : [];
    }
    case 'EndSession':
      return state.status === 'active'
        ? [
            {
              type: 'SessionEnded',
              data: {
                sessionId: state.sessionId,
                tokenHash: state.tokenHash,
                reason: command.data.reason,
                endedAt: now,
              },
            },
          ]
        : [];
  }
}

export const sessionDecider: Decider<SessionState, SessionCommand, SessionEvent> = {
  initialState: initialSession,
  evolve: evolveSession,
  decide: decideSession,
};
