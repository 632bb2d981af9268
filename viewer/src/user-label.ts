/**
 * User text in the viewer's panels (item labels, group and vehicle names): explicit bidi
 * formatting characters removed (display/text.ts) and the text isolated in a `<bdi dir="auto">`,
 * so an Arabic or Hebrew label reads right to left without reordering the counts and words
 * around it, and "\u202Eevil" reads "evil".
 */
import { displayText } from '../../display/text.js';

/** A `<bdi dir="auto">` reading `text` (without bidi formatting characters), with `className` when given. */
export function userLabel(text: string, className?: string): HTMLElement {
  const el = document.createElement('bdi');
  el.dir = 'auto';
  if (className) el.className = className;
  el.textContent = displayText(text);
  return el;
}

/** Nodes reading the labels `texts` separated by `separator`, each isolated (userLabel). */
export function userLabelList(texts: readonly string[], separator = ', '): Node[] {
  return texts.flatMap((t, i) => (i === 0 ? [userLabel(t)] : [document.createTextNode(separator), userLabel(t)]));
}
