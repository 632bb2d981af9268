/**
 * Your password (roles; every signed-in member, the owner too; POST /app/api/password): the
 * current password and a new one typed twice (ui/password-check.ts before sending; the service
 * checks again and its messages show under the fields). A change signs the member out everywhere
 * else; this browser stays signed in.
 */
import { useState } from 'react';
import { ApiFailure, call } from '../api.js';
import { useSignedIn } from '../session.js';
import { ErrorBanner } from '../ui/error-banner.js';
import { Field } from '../ui/field.js';
import { fieldErrorsOf } from '../ui/field-errors.js';
import { Page } from '../ui/page.js';
import { passwordProblems } from '../ui/password-check.js';

/** The page: heading "Your password", fields "Current password", "New password", "Repeat new password", button "Change password". */
export function PasswordPage() {
  const session = useSignedIn();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [repeat, setRepeat] = useState('');
  const [local, setLocal] = useState<string[]>([]);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  const apiErrors =
    error instanceof ApiFailure
      ? fieldErrorsOf(error.details, ['current_password', 'new_password'])
      : { byField: {} as Record<string, string[]>, other: [] };

  return (
    <Page title="Your password">
      <p>
        Signed in as <strong>{session.user.email}</strong>. Changing your password signs you out on every other device
        and browser.
      </p>
      {done ? (
        <p className="notice" role="status">
          Your password was changed. Other sessions were signed out.
        </p>
      ) : null}
      <form
        onSubmit={async (e) => {
          e.preventDefault();
          const problems = passwordProblems(next, repeat);
          setLocal(problems);
          setDone(false);
          if (problems.length) return;
          setBusy(true);
          setError(null);
          try {
            await call('POST', '/app/api/password', { current_password: current, new_password: next });
            setDone(true);
            setCurrent('');
            setNext('');
            setRepeat('');
          } catch (err) {
            setError(err);
          } finally {
            setBusy(false);
          }
        }}
      >
        <Field label="Current password" errors={apiErrors.byField['current_password']}>
          {(a) => (
            <input
              {...a}
              type="password"
              autoComplete="current-password"
              value={current}
              onChange={(e) => setCurrent(e.target.value)}
            />
          )}
        </Field>
        <Field
          label="New password"
          hint="At least 10 characters."
          errors={[...local, ...(apiErrors.byField['new_password'] ?? [])]}
        >
          {(a) => (
            <input
              {...a}
              type="password"
              autoComplete="new-password"
              value={next}
              onChange={(e) => setNext(e.target.value)}
            />
          )}
        </Field>
        <Field label="Repeat new password">
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
        <ErrorBanner error={error} details={apiErrors.other} />
        <div className="form-buttons">
          <button type="submit" disabled={busy}>
            {busy ? 'Changing…' : 'Change password'}
          </button>
        </div>
      </form>
    </Page>
  );
}
