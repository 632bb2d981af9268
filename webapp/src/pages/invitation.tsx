/**
 * Invitation page (GET /app/api/invitations/:token, POST …/accept `{name, password}`):
 * shows the organization, email and role of the invitation; the invitee chooses a name and a
 * password (typed twice, checked here before sending) and is signed in, then sent to
 * /playground. An unknown, used, withdrawn or expired token shows the API's message. A password
 * reset (purpose `password_reset`, roles) asks only for the new password: the member keeps their
 * name, and every other session of theirs ends.
 */
import { useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { ApiFailure, call } from '../api.js';
import { useSession, type Session } from '../session.js';
import { ErrorBanner } from '../ui/error-banner.js';
import { Field } from '../ui/field.js';
import { fieldErrorsOf } from '../ui/field-errors.js';
import { passwordProblems } from '../ui/password-check.js';

/** Body of GET /app/api/invitations/:token. */
interface Invitation {
  organization: { id: string; name: string };
  email: string;
  role: 'owner' | 'member';
  expires_at: string;
  /** `password_reset`: the owner's reset of this member's password. */
  purpose?: 'password_reset' | null;
  /** The member's name, on a reset. */
  name?: string | null;
}

/** The accept form: "Your name", "Password", "Repeat password", button "Accept invitation". */
export function InvitationPage() {
  const { token = '' } = useParams();
  const { adopt } = useSession();
  const navigate = useNavigate();
  const [invitation, setInvitation] = useState<Invitation | null>(null);
  const [loadError, setLoadError] = useState<unknown>(null);
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [local, setLocal] = useState<Record<string, string[]>>({});
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    document.title = 'Invitation · Load planner';
    call<Invitation>('GET', `/app/api/invitations/${encodeURIComponent(token)}`).then(setInvitation, setLoadError);
  }, [token]);

  const apiErrors =
    error instanceof ApiFailure ? fieldErrorsOf(error.details, ['name', 'password']) : { byField: {}, other: [] };
  const reset = invitation?.purpose === 'password_reset';

  return (
    <main id="main" className="sign-in">
      <h1>
        {reset
          ? `Set a new password for ${invitation?.organization.name ?? 'your organization'}`
          : `Join ${invitation ? invitation.organization.name : 'an organization'}`}
      </h1>
      {loadError ? <ErrorBanner error={loadError} /> : null}
      {!invitation && !loadError ? <p role="status">Loading the invitation…</p> : null}
      {invitation ? (
        <form
          onSubmit={async (e) => {
            e.preventDefault();
            const problems = passwordProblems(password, repeat);
            const nameProblems = reset || name.trim() ? [] : ['enter your name'];
            setLocal({
              ...(problems.length ? { password: problems } : {}),
              ...(nameProblems.length ? { name: nameProblems } : {}),
            });
            if (problems.length || nameProblems.length) return;
            setBusy(true);
            setError(null);
            try {
              const body = reset ? { password } : { name: name.trim(), password };
              const s = await call<Session>('POST', `/app/api/invitations/${encodeURIComponent(token)}/accept`, body);
              adopt(s);
              void navigate('/playground', { replace: true });
            } catch (err) {
              setError(err);
            } finally {
              setBusy(false);
            }
          }}
        >
          {reset ? (
            <p>
              {invitation.name ? `${invitation.name}, the` : 'The'} owner asked you to set a new password for{' '}
              <strong>{invitation.email}</strong>. It replaces your current one and signs you out everywhere else. The
              link expires {new Date(invitation.expires_at).toLocaleString()}.
            </p>
          ) : (
            <p>
              You were invited as <strong>{invitation.role}</strong> with the email <strong>{invitation.email}</strong>.
              The invitation expires {new Date(invitation.expires_at).toLocaleString()}.
            </p>
          )}
          {reset ? null : (
            <Field label="Your name" errors={[...(local['name'] ?? []), ...(apiErrors.byField['name'] ?? [])]}>
              {(a) => <input {...a} autoComplete="name" value={name} onChange={(e) => setName(e.target.value)} />}
            </Field>
          )}
          <Field
            label="Password"
            hint="At least 10 characters."
            errors={[...(local['password'] ?? []), ...(apiErrors.byField['password'] ?? [])]}
          >
            {(a) => (
              <input
                {...a}
                type="password"
                autoComplete="new-password"
                value={password}
                onChange={(e) => setPassword(e.target.value)}
              />
            )}
          </Field>
          <Field label="Repeat password">
            {(a) => (
              <input
                {...a}
                type="password"
                autoComplete="new-password"
                value={repeat}
                onChange={(e) => setRepeat(e.target.value)}
              />
            )}
          </Field>
          <ErrorBanner error={error} details={apiErrors.other} signInLink={false} />
          <div className="form-buttons">
            <button type="submit" disabled={busy}>
              {busy ? 'Saving…' : reset ? 'Set new password' : 'Accept invitation'}
            </button>
          </div>
        </form>
      ) : null}
    </main>
  );
}
