/**
 * User text for display (display/text.ts): explicit bidi formatting characters never survive,
 * text without them is unchanged, and an override cannot reverse a label ("\u202Eevil" → "evil").
 */
import t from 'tap';
import fc from 'fast-check';
import { BIDI_FORMATTING, FSI, PDI, displayText, isolatedText } from '../../display/text.js';

const CONTROLS = [
  '\u202a',
  '\u202b',
  '\u202c',
  '\u202d',
  '\u202e',
  '\u2066',
  '\u2067',
  '\u2068',
  '\u2069',
  '\u200e',
  '\u200f',
  '\u061c',
];
const ANY_CONTROL = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/u;

/** Strings of any code units (lone surrogates too) with bidi controls mixed in. */
const withControls = fc
  .array(
    fc.oneof(
      fc.string({ unit: 'binary', maxLength: 8 }),
      fc.constantFrom(...CONTROLS),
      fc.constantFrom('صندوق', 'ארגז', '货物', '📦', 'evil'),
    ),
    { maxLength: 12 },
  )
  .map((parts) => parts.join(''));

t.test('examples', async (t) => {
  t.equal(displayText('\u202eevil'), 'evil');
  t.equal(displayText('\u202eevil\u202c'), 'evil');
  t.equal(displayText('a\u2067b\u2069c\u200fd\u061c'), 'abcd');
  t.equal(displayText('صندوق 12'), 'صندوق 12', 'Arabic text is kept as written');
  t.equal(displayText('货物 📦'), '货物 📦');
  t.equal(isolatedText('\u202eevil'), `${FSI}evil${PDI}`);
  t.equal(BIDI_FORMATTING.flags.includes('g'), true);
});

t.test('the output never holds a bidi formatting character', async () => {
  fc.assert(fc.property(withControls, (s) => !ANY_CONTROL.test(displayText(s))));
});

t.test('text without bidi formatting characters is unchanged', async () => {
  fc.assert(
    fc.property(
      fc.string({ unit: 'binary', maxLength: 64 }).filter((s) => !ANY_CONTROL.test(s)),
      (s) => displayText(s) === s,
    ),
  );
});

t.test('removing is all it does: the other characters stay in order', async () => {
  fc.assert(
    fc.property(withControls, (s) => displayText(s) === [...s].filter((ch) => !CONTROLS.includes(ch)).join('')),
  );
});

t.test('isolatedText: one FSI…PDI pair around the cleaned text, idempotent inside', async () => {
  fc.assert(
    fc.property(withControls, (s) => {
      const out = isolatedText(s);
      return out === `${FSI}${displayText(s)}${PDI}` && displayText(out) === displayText(s);
    }),
  );
});
