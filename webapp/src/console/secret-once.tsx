/**
 * A secret shown once (console: an API key's secret after creating or rotating it, a webhook
 * endpoint's signing secret after adding it): a warning region with its heading, "Copy it now",
 * the secret with a copy button, and "I have stored the secret" to put it away. The service
 * keeps no copy it could show again.
 */
import type { ReactNode } from 'react';
import { CopyButton } from '../ui/copy-button.js';

/**
 * Shows `secret` under the heading `title` (an `<h2>` of id `id`, naming the region); `secretLabel`
 * names the secret's text ("Key secret"), `note` follows "Copy it now: it is shown only once.";
 * `onDismiss` runs on "I have stored the secret".
 */
export function SecretOnce({
  id,
  title,
  secretLabel,
  secret,
  note,
  onDismiss,
}: {
  id: string;
  title: ReactNode;
  secretLabel: string;
  secret: string;
  note?: string;
  onDismiss: () => void;
}) {
  return (
    <section className="warning" aria-labelledby={id} role="region">
      <h2 id={id}>{title}</h2>
      <p>
        <strong>Copy it now: it is shown only once.</strong>
        {note}
      </p>
      <code className="secret" aria-label={secretLabel}>
        {secret}
      </code>
      <CopyButton text={secret} label="Copy secret" />{' '}
      <button type="button" className="secondary" onClick={onDismiss}>
        I have stored the secret
      </button>
    </section>
  );
}
