/**
 * Sign-in page (POST /app/api/session `{email, password}`): a signed-in member goes on
 * to `?next=` (a path inside the app) or /playground. Shows "wrong email or password" (401) and
 * the wait after too many failures (429 rate_limited) in the error banner.
 */
import { useEffect, useState } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { useSession } from '../session.js';
import { ErrorBanner } from '../ui/error-banner.js';
import { Field } from '../ui/field.js';
import { safeNextPath } from '../ui/next-path.js';

/** The sign-in form: "Email", "Password", button "Sign in". */
export function SignInPage() {
  const { session, signIn } = useSession();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const next = safeNextPath(params.get('next'));
  useEffect(() => {
    document.title = 'Sign in · Load planner';
  }, []);
  if (session) return <Navigate to={next} replace />;
  return (
    <main id="main" className="sign-in">
      <h1>Sign in</h1>
      <form
        onSubmit={async (e) => {
          e.preventDefault();
          setBusy(true);
          setError(null);
          try {
            await signIn(email.trim(), password);
            void navigate(next, { replace: true });
          } catch (err) {
            setError(err);
          } finally {
            setBusy(false);
          }
        }}
      >
        <Field label="Email">
          {(a) => (
            <input
              {...a}
              type="email"
              autoComplete="username"
              required
              value={email}
              onChange={(e) => setEmail(e.target.value)}
            />
          )}
        </Field>
        <Field label="Password">
          {(a) => (
            <input
              {...a}
              type="password"
              autoComplete="current-password"
              required
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          )}
        </Field>
        <ErrorBanner error={error} signInLink={false} />
        <div className="form-buttons">
          <button type="submit" disabled={busy}>
            {busy ? 'Signing in…' : 'Sign in'}
          </button>
        </div>
      </form>
      <p className="hint">New here? Open the invitation link your organization's owner sent you.</p>
    </main>
  );
}
