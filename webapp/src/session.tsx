/**
 * The signed-in session of the web app: GET /app/api/session on load,
 * sign-in (POST /app/api/session), invitation accept and sign-out (DELETE /app/api/session).
 * Every change of session hands its CSRF token to api.ts (`useCsrfToken`), so unsafe calls carry
 * it. Signed-out visitors are sent to /app/sign-in, except on /app/invitations/:token.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { ApiFailure, call, useCsrfToken } from './api.js';

/** Body of GET/POST /app/api/session (contract of). */
export interface Session {
  user: { id: string; name: string; email: string; role: 'owner' | 'member' };
  /**
   * `display_units`: the organization's display preference (units/measure.ts); absent means
   * metric. `allowed_vehicle_types`: the vehicle types its plan accepts (spec Limits);
   * `axle_access`: whether axle fields are checked (spec Vehicle). Absent: not told.
   */
  organization: {
    id: string;
    name: string;
    display_units?: 'metric' | 'imperial';
    allowed_vehicle_types?: string[];
    axle_access?: boolean;
  };
  csrf_token: string;
}

/** What the session context offers: the session (null when signed out), its loading state and its changes. */
export interface SessionState {
  /** undefined while GET /app/api/session is under way, null when signed out. */
  session: Session | null | undefined;
  /** A failure other than 401 while loading (e.g. the service is unreachable). */
  loadError: ApiFailure | null;
  /** Signs in with email and password; throws ApiFailure (401 unauthorized, 429 rate_limited). */
  signIn: (email: string, password: string) => Promise<Session>;
  /** Takes a session answered by another call (the invitation accept). */
  adopt: (session: Session) => void;
  /** Ends the session (DELETE /app/api/session); signed out afterwards even when the call fails. */
  signOut: () => Promise<void>;
}

const SessionContext = createContext<SessionState | null>(null);

/** Provides the session to its children; loads it once on mount. */
export function SessionProvider({ children }: { children: ReactNode }) {
  const [session, setSession] = useState<Session | null | undefined>(undefined);
  const [loadError, setLoadError] = useState<ApiFailure | null>(null);

  const adopt = useCallback((s: Session | null) => {
    useCsrfToken(s?.csrf_token ?? null);
    setSession(s);
  }, []);

  useEffect(() => {
    let live = true;
    call<Session>('GET', '/app/api/session')
      .then((s) => live && adopt(s))
      .catch((err: unknown) => {
        if (!live) return;
        if (err instanceof ApiFailure && err.status === 401) adopt(null);
        else {
          setLoadError(err instanceof ApiFailure ? err : new ApiFailure(0, 'network_error', String(err)));
          adopt(null);
        }
      });
    return () => {
      live = false;
    };
  }, [adopt]);

  const signIn = useCallback(
    async (email: string, password: string) => {
      const s = await call<Session>('POST', '/app/api/session', { email, password });
      adopt(s);
      return s;
    },
    [adopt],
  );

  const signOut = useCallback(async () => {
    try {
      await call('DELETE', '/app/api/session');
    } finally {
      adopt(null);
    }
  }, [adopt]);

  const value = useMemo<SessionState>(
    () => ({ session, loadError, signIn, adopt, signOut }),
    [session, loadError, signIn, adopt, signOut],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

/** The session context; throws when used outside SessionProvider (a programming error). */
export function useSession(): SessionState {
  const state = useContext(SessionContext);
  if (!state) throw new Error('useSession outside SessionProvider');
  return state;
}

/** The signed-in session; only inside RequireSession (throws otherwise). */
export function useSignedIn(): Session {
  const { session } = useSession();
  if (!session) throw new Error('useSignedIn without a session');
  return session;
}

/**
 * Renders its children for a signed-in member (and, with `owner`, only for the owner: others see a
 * "for the owner" notice); signed-out visitors go to /sign-in with the page they asked for kept in
 * `?next=`.
 */
export function RequireSession({ children, owner = false }: { children: ReactNode; owner?: boolean }) {
  const { session } = useSession();
  const location = useLocation();
  if (session === undefined) {
    return (
      <p className="loading" role="status">
        Loading…
      </p>
    );
  }
  if (session === null) {
    const next = `${location.pathname}${location.search}`;
    return <Navigate to={`/sign-in?next=${encodeURIComponent(next)}`} replace />;
  }
  if (owner && session.user.role !== 'owner') {
    return (
      <main id="main">
        <h1>For the owner only</h1>
        <p>Only the organization's owner manages API keys, members, webhooks and the account.</p>
      </main>
    );
  }
  return <>{children}</>;
}
