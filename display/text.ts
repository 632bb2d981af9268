/**
 * User text for display (item labels, group and vehicle names, references, member names) in the
 * 3D viewer, the web app and the PDF: explicit bidi formatting characters are removed, so a
 * label such as "\u202Eevil" reads "evil" and cannot reorder the text around it. Removed:
 * the embeddings and overrides LRE, RLE, PDF, LRO, RLO (U+202A–U+202E), the isolates LRI, RLI,
 * FSI, PDI (U+2066–U+2069) and the marks LRM, RLM, ALM (U+200E, U+200F, U+061C). Every other
 * character is kept, so an Arabic or Hebrew label still reads right to left by the Unicode bidi
 * algorithm; each front end isolates the label from its neighbours (`dir="auto"`/`<bdi>` in
 * HTML, FSI…PDI around text drawn on a canvas). Pure, no DOM: shared by the viewer, the web app
 * and the PDF renderer.
 */

/** Every explicit bidi formatting character (embeddings, overrides, isolates, marks). */
export const BIDI_FORMATTING = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/gu;

/** First strong isolate (U+2068) and pop directional isolate (U+2069). */
export const FSI = '\u2068';
export const PDI = '\u2069';

/** `text` without explicit bidi formatting characters (BIDI_FORMATTING); everything else unchanged. */
export function displayText(text: string): string {
  return text.replace(BIDI_FORMATTING, '');
}

/**
 * `text` for a plain-text context that has no element to isolate it (a canvas, an `<option>`,
 * a `title`): displayText wrapped in FSI…PDI, so its direction comes from its own first strong
 * character and it never reorders the text around it.
 */
export function isolatedText(text: string): string {
  return `${FSI}${displayText(text)}${PDI}`;
}

/**
 * A stored field's value (JSON) as text: '' when absent (undefined, null), a string as it is,
 * numbers and booleans as `String` writes them, objects and arrays as JSON.
 */
export function valueText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value) ?? '';
}
