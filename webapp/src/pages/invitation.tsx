/**
 * Invitation page (issue 11; GET /app/api/invitations/:token, POST …/accept `{name, password}`):
 * shows the organization, email and role of the invitation; the invitee chooses a name and a
 * password (typed twice, checked here before sending) and is signed in, then sent to
 * /playground. An unknown, used or expired token shows the API's message.
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

  const apiErrors = error instanceof ApiFailure ? fieldErrorsOf(error.details, ['name', 'password']) : { byField: {}, other: [] };

  return (
    <main id="main" className="sign-in">
      <h1>Join {invitation ? invitation.organization.name : 'an organization'}</h1>
      {loadError ? <ErrorBanner error={loadError} /> : null}
      {!invitation && !loadError ? <p role="status">Loading the invitation…</p> : null}
      {invitation ? (
        <form
          onSubmit={async (e) => {
            e.preventDefault();
            const problems = passwordProblems(password, repeat);
            const nameProblems = name.trim() ? [] : ['enter your name'];
            setLocal({ ...(problems.length ? { password: problems } : {}), ...(nameProblems.length ? { name: nameProblems } : {}) });
            if (problems.length || nameProblems.length) return;
            setBusy(true);
            setError(null);
            try {
              const s = await call<Session>('POST', `/app/api/invitations/${encodeURIComponent(token)}/accept`, { name: name.trim(), password });
              adopt(s);
              navigate('/playground', { replace: true });
            } catch (err) {
              setError(err);
            } finally {
              setBusy(false);
            }
          }}
        >
          <p>
            You were invited as <strong>{invitation.role}</strong> with the email <strong>{invitation.email}</strong>. The invitation expires{' '}
            {new Date(invitation.expires_at).toLocaleString()}.
          </p>
          <Field label="Your name" errors={[...(local['name'] ?? []), ...(apiErrors.byField['name'] ?? [])]}>
            {(a) => <input {...a} autoComplete="name" value={name} onChange={(e) => setName(e.target.value)} />}
          </Field>
          <Field label="Password" hint="At least 10 characters." errors={[...(local['password'] ?? []), ...(apiErrors.byField['password'] ?? [])]}>
            {(a) => <input {...a} type="password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} />}
          </Field>
          <Field label="Repeat password">
            {(a) => <input {...a} type="password" autoComplete="new-password" value={repeat} onChange={(e) => setRepeat(e.target.value)} />}
          </Field>
          <ErrorBanner error={error} details={apiErrors.other} signInLink={false} />
          <div className="form-buttons">
            <button type="submit" disabled={busy}>
              {busy ? 'Joining…' : 'Accept invitation'}
            </button>
          </div>
        </form>
      ) : null}
    </main>
  );
}
