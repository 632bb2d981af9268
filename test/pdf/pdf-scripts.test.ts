/**
 * The PDF prints labels in any script the crew writes (fonts.ts, text-runs.ts): a plan whose
 * item labels are Chinese (货物), Arabic (صندوق), Hebrew (ארגז) and emoji (📦) embeds the fallback
 * fonts (Noto Sans Hans, Noto Naskh Arabic, Noto Emoji; pdffonts), its text extracts with those
 * characters (ToUnicode; pdftotext), and the page has ink where the labels stand (pdftoppm).
 * Bidi formatting characters never reach the page ("\u202Eevil" prints "evil").
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { renderPlanPdf } from '../../pdf/pdf.js';
import { textRuns } from '../../pdf/text-runs.js';
import { FONT, FONT_BOLD } from '../../pdf/page.js';
import { buildVehicle } from './plan-fixture.js';

const has = (tool: string, flag = '-v'): boolean => {
  try {
    execFileSync(tool, [flag], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};
const poppler = has('pdftotext') && has('pdffonts');

const LABELS = { cjk: '货物 cargo', arabic: 'صندوق', hebrew: 'ארגז', emoji: '📦 parcel', evil: '\u202eevil' };

async function scriptsPdf(): Promise<string> {
  const v = buildVehicle(
    { index: 0, id: 'van', name: 'Van 货车', type: 'truck', length: 400, width: 200, height: 200, maxWeight: 3000 },
    Object.entries(LABELS).map(([id, label]) => ({
      id,
      label,
      length: 60,
      width: 60,
      height: 60,
      weight: 20,
      count: 1,
    })),
    new Map(),
  );
  const pdf = await renderPlanPdf({
    jobId: 'job_scripts',
    reference: 'مرجع 7',
    createdAt: '2024-06-01T08:30:00Z',
    plan: { vehicles: [v.vehicle], unplaced: [] },
  });
  const file = join(mkdtempSync(join(tmpdir(), 'plan-scripts-')), 'plan.pdf');
  writeFileSync(file, pdf);
  return file;
}

t.test('text runs: each script in its fallback font, in visual order', async (t) => {
  t.same(textRuns('Box 12', FONT), [{ font: FONT, text: 'Box 12' }], 'Latin stays one run of the body font');
  t.same(
    textRuns('货物 box', FONT).map((r) => r.font),
    ['CJK', FONT],
  );
  t.same(
    textRuns('货物', FONT_BOLD).map((r) => r.font),
    ['CJKBold'],
    'bold text falls back to the bold CJK font',
  );
  t.same(
    textRuns('📦 parcel', FONT).map((r) => r.font),
    ['Emoji', FONT],
  );
  t.same(
    textRuns('صندوق', FONT),
    [{ font: 'Arabic', text: 'صندوق' }],
    'Arabic in logical order: fontkit shapes and lays it right to left',
  );
  // In a left-to-right line the Arabic label keeps its place; digits after it stay after it.
  const mixed = textRuns('3 × صندوق', FONT);
  t.same(mixed.map((r) => r.text).join(''), '3 × صندوق');
  t.same(mixed.at(-1), { font: 'Arabic', text: 'صندوق' });
  // Two Hebrew words: one run handed over in logical order (fontkit reverses a Hebrew run).
  t.same(textRuns('ארגז גדול', FONT), [{ font: FONT, text: 'ארגז גדול' }]);
  // An RTL run fontkit would not reverse (brackets alone) is reversed and mirrored here.
  t.same(
    textRuns('x (صندوق) y', FONT)
      .map((r) => r.text)
      .join(''),
    'x (صندوق) y',
  );
});

t.test(
  'the PDF embeds the fallback fonts and extracts every script (needs poppler-utils)',
  { skip: poppler ? false : 'pdftotext/pdffonts not installed' },
  async (t) => {
    const file = await scriptsPdf();
    const fonts = execFileSync('pdffonts', [file], { encoding: 'utf8' });
    for (const name of ['DejaVuSans', 'NotoSansHans', 'NotoNaskhArabic', 'NotoEmoji'])
      t.match(fonts, new RegExp(`[A-Z]{6}\\+${name}`), `${name} embedded as a subset`);
    t.notMatch(fonts.split('\n').slice(2).join('\n'), / no +no +no /, 'every font is embedded');
    const text = execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' });
    t.match(text, '货物', 'Chinese extracts');
    t.match(text, '货车', 'the Chinese vehicle name extracts');
    t.match(text, '📦', 'the emoji extracts');
    // pdftotext gives right-to-left text in logical order or as drawn (reversed): either holds every letter.
    t.ok(text.includes('صندوق') || text.includes([...'صندوق'].reverse().join('')), 'the Arabic label extracts');
    t.ok(text.includes('ארגז') || text.includes('זגרא'), 'the Hebrew label extracts');
    t.match(text, 'evil', '"\\u202Eevil" prints as "evil"');
    // (pdftotext itself marks right-to-left text with RLE…PDF; the override of the label is gone.)
    t.notMatch(text, /[\u202d\u202e\u2066-\u2069]/, 'no override or isolate reaches the page');
    t.notMatch(text, 'live', 'the override did not reverse the word');
  },
);

t.test(
  'the labels leave ink on the page (needs pdftoppm)',
  { skip: has('pdftoppm') ? false : 'pdftoppm not installed' },
  async (t) => {
    const file = await scriptsPdf();
    // Page 3 (the first instruction page) lists every label; rendered in grey at 40 dpi, the
    // packing-list rows must not be blank.
    const out = join(mkdtempSync(join(tmpdir(), 'plan-scripts-png-')), 'p');
    execFileSync('pdftoppm', ['-gray', '-r', '40', '-f', '1', '-l', '1', file, out]);
    const pgm = readFileSync(`${out}-1.pgm`);
    const dark = pgm.subarray(pgm.length - 467 * 330).filter((b) => b < 128).length;
    t.ok(dark > 500, `the summary page has ink (${dark} dark pixels)`);
  },
);
