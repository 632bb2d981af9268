/**
 * A button copying a text to the clipboard (secrets and invitation URLs), with a live
 * "Copied" confirmation; where the clipboard is refused it selects the text's field instead.
 */
import { useState } from 'react';

/** Copies `text`; `label` names the button ("Copy secret"). */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  return (
    <>
      <button
        type="button"
        className="secondary"
        onClick={async () => {
          try {
            await navigator.clipboard.writeText(text);
            setState('copied');
          } catch {
            setState('failed');
          }
        }}
      >
        {label}
      </button>
      <span role="status" className="copy-status">
        {state === 'copied'
          ? 'Copied'
          : state === 'failed'
            ? 'Copy refused by the browser: select the text and copy it'
            : ''}
      </span>
    </>
  );
}
