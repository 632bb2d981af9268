import t from 'tap';
import fc from 'fast-check';
import PDFDocument from 'pdfkit';
import type { LoadingInstruction } from '../../domain/pack/loading-instructions.js';
import { planDate } from '../../pdf/header-block.js';
import { MAX_PICTURES, pictureStages } from '../../pdf/instruction-pages.js';
import { FONT, FONT_FILES, wrapText } from '../../pdf/page.js';
import { niceCeiling } from '../../pdf/weight-diagram.js';

/** Instructions of the given unit counts, steps in order (only the fields pictureStages reads). */
function instructions(counts: readonly number[]): LoadingInstruction[] {
  let step = 1;
  return counts.map((count, i) => {
    const ins = { number: i + 1, firstStep: step, lastStep: step + count - 1, count } as LoadingInstruction;
    step += count;
    return ins;
  });
}

t.test('pictureStages: one picture per block up to the limit, then the smallest neighbours share one', async (t) => {
  t.equal(MAX_PICTURES, 24);
  t.same(
    pictureStages(instructions([3, 4, 5]), 3).map((s) => [s.firstStep, s.lastStep, s.units]),
    [
      [1, 3, 3],
      [4, 7, 4],
      [8, 12, 5],
    ],
  );
  // 4 blocks into 3 pictures: the 1 + 2 pair is the lightest.
  t.same(
    pictureStages(instructions([40, 1, 2, 30]), 3).map((s) => s.instructions.map((i) => i.number)),
    [[1], [2, 3], [4]],
  );
  t.same(pictureStages([], 3), []);
});

t.test('pictureStages property: at most the limit, every block once and in order, stages end to end', async (t) => {
  fc.assert(
    fc.property(
      fc.array(fc.integer({ min: 1, max: 60 }), { maxLength: 120 }),
      fc.integer({ min: 1, max: 30 }),
      (counts, max) => {
        const stages = pictureStages(instructions(counts), max);
        if (stages.length !== Math.min(counts.length, max)) return false;
        const numbers = stages.flatMap((s) => s.instructions.map((i) => i.number));
        if (numbers.join() !== counts.map((_, i) => i + 1).join()) return false;
        return stages.every(
          (s, k) =>
            s.units === s.instructions.reduce((n, i) => n + i.count, 0) &&
            s.firstStep === s.instructions[0]!.firstStep &&
            s.lastStep === s.instructions[s.instructions.length - 1]!.lastStep &&
            (k === 0 || s.firstStep === stages[k - 1]!.lastStep + 1),
        );
      },
    ),
    { numRuns: 300, seed: 4 },
  );
  t.pass('300 runs');
});

t.test('wrapText: breaks at spaces, shortens only past the last line', async (t) => {
  const doc = new PDFDocument({ autoFirstPage: false });
  for (const [name, file] of Object.entries(FONT_FILES)) doc.registerFont(name, file);
  const text = 'EUR pallet - solvent-based paint, UN 1263 (class 3), keep upright and away from heat';
  doc.font(FONT).fontSize(9);
  const width = doc.widthOfString('EUR pallet - solvent-based paint,') + 1;
  const two = wrapText(doc, text, width, FONT, 9, 2);
  t.equal(two.length, 2);
  t.equal(two[0], 'EUR pallet - solvent-based paint,');
  t.match(two[1], /^UN 1263 .*…$/, 'the rest shortened with an ellipsis');
  t.same(wrapText(doc, text, 2000, FONT, 9, 2), [text], 'fits one line');
  const all = wrapText(doc, text, width, FONT, 9, 10);
  t.equal(all.join(' '), text, 'with lines enough nothing is lost');
  t.ok(
    all.every((l) => {
      doc.font(FONT).fontSize(9);
      return doc.widthOfString(l) <= width;
    }),
  );
});

t.test('planDate and the kg/m scale', async (t) => {
  t.equal(planDate('2024-06-01T08:30:00+02:00'), '2024-06-01 06:30 UTC');
  t.equal(planDate('yesterday'), 'yesterday');
  t.same(
    [niceCeiling(2379), niceCeiling(917), niceCeiling(1000), niceCeiling(0.4), niceCeiling(4801)],
    [2500, 1000, 1000, 0.5, 5000],
  );
});
