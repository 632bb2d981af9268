/**
 * An error banner: the API's error message and code
 * (ApiFailure from api.ts) and the `details` no form field shows, announced by screen readers
 * (role="alert").
 */
import { ApiFailure, type ErrorDetail } from '../api.js';
import { valueText } from '../../../display/text.js';

/**
 * Shows `error` (an ApiFailure or anything thrown) with `details` (default: the failure's own);
 * nothing when null. A 401 (the session ended) offers a link to sign in again unless
 * `signInLink` is false (the sign-in form itself).
 */
export function ErrorBanner({
  error,
  details,
  signInLink = true,
}: {
  error: unknown;
  details?: readonly ErrorDetail[];
  signInLink?: boolean;
}) {
  if (error === null || error === undefined) return null;
  const failure = error instanceof ApiFailure ? error : null;
  const message = failure ? failure.message : error instanceof Error ? error.message : valueText(error);
  const listed = details ?? failure?.details ?? [];
  return (
    <div className="error-banner" role="alert">
      <p>
        <strong>{failure ? describeStatus(failure) : 'Something went wrong'}:</strong> {message}
        {failure ? <span className="code"> ({failure.code})</span> : null}
        {failure?.status === 401 && signInLink ? (
          <>
            {' '}
            <a href={`/app/sign-in?next=${encodeURIComponent(window.location.pathname)}`}>Sign in again</a>
          </>
        ) : null}
      </p>
      {listed.length ? (
        <ul>
          {listed.map((d, i) => (
            <li key={i}>
              {d.path ? <code>{d.path}</code> : null} {d.message}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/** A short heading for a failure's HTTP status. */
function describeStatus(f: ApiFailure): string {
  if (f.status === 0) return 'No connection';
  if (f.status === 400 || f.status === 422) return 'Please check the input';
  if (f.status === 401) return 'Not signed in';
  if (f.status === 403) return 'Not allowed';
  if (f.status === 404) return 'Not found';
  if (f.status === 409) return 'Conflict';
  if (f.status === 429) return 'Too many attempts';
  return 'The service failed';
}
