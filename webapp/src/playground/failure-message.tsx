/**
 * An answer the service refused, as the member reads it: the envelope's message and each
 * detail's path and message (spec Error envelope), announced to screen readers (role="alert").
 */
import { ApiFailure } from '../api.js';

/** Shows `failure` (an ApiFailure, another Error or a text); nothing for null. */
export function FailureMessage({ failure }: { failure: unknown }) {
  if (failure === null || failure === undefined) return null;
  if (failure instanceof ApiFailure) {
    return (
      <div role="alert" className="pg-failure">
        <p>
          {failure.message} <code>{failure.code}</code>
        </p>
        {failure.details.length > 0 && (
          <ul>
            {failure.details.map((d, i) => (
              <li key={i}>
                <code>{d.path}</code>: {d.message}
              </li>
            ))}
          </ul>
        )}
      </div>
    );
  }
  return (
    <div role="alert" className="pg-failure">
      <p>{failure instanceof Error ? failure.message : String(failure)}</p>
    </div>
  );
}
