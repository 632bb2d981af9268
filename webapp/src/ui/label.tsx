/**
 * User text in the web app (job references, saved-data names, member names): explicit bidi
 * formatting characters removed (display/text.ts) and the text isolated from its neighbours in a
 * `<bdi dir="auto">` (class `user-label`, styles.css: `unicode-bidi: isolate`), so an Arabic or
 * Hebrew name reads right to left without reordering the words around it, and "\u202Eevil" shows
 * as "evil".
 */
import { displayText } from '../../../display/text.js';

/** `text` shown as one isolated label. */
export function Label({ text }: { text: string }) {
  return (
    <bdi dir="auto" className="user-label">
      {displayText(text)}
    </bdi>
  );
}
