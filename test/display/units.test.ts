/**
 * Display units shared by the web app, the viewer and the PDF (display/units.ts) and the
 * viewer's words for them (viewer/src/measure-words.ts): exact conversions, metric by default.
 */
import t from 'tap';
import fc from 'fast-check';
import {
  CM_PER_INCH,
  KG_PER_POUND,
  displayUnitsOf,
  lengthFromDisplay,
  lengthToDisplay,
  weightFromDisplay,
  weightToDisplay,
} from '../../display/units.js';
import { measureWords } from '../../viewer/src/measure-words.js';

t.test('conversions are exact to the definitions and round-trip', async (t) => {
  t.equal(lengthToDisplay(254, 'imperial'), 100);
  t.equal(weightToDisplay(KG_PER_POUND * 10, 'imperial'), 10);
  t.equal(lengthToDisplay(120, 'metric'), 120);
  fc.assert(
    fc.property(
      fc.double({ min: 0, max: 1e5, noNaN: true }),
      (v) =>
        Math.abs(lengthFromDisplay(lengthToDisplay(v, 'imperial'), 'imperial') - v) <= 1e-9 * Math.max(1, v) &&
        Math.abs(weightFromDisplay(weightToDisplay(v, 'imperial'), 'imperial') - v) <= 1e-9 * Math.max(1, v),
    ),
  );
});

t.test('an absent or unknown preference is metric', async (t) => {
  t.equal(displayUnitsOf(undefined), 'metric');
  t.equal(displayUnitsOf('furlongs'), 'metric');
  t.equal(displayUnitsOf('imperial'), 'imperial');
});

t.test('viewer words: cm/kg when metric, in/lb/ft when imperial', async (t) => {
  const metric = measureWords('metric'),
    imperial = measureWords('imperial');
  t.equal(metric.sizes(120, 80, 100), '120 × 80 × 100 cm');
  t.equal(metric.weight(1250), '1,250 kg');
  t.equal(metric.distance(150), '1.50 m');
  t.equal(
    imperial.sizes(120, 80, 100),
    `${(120 / CM_PER_INCH).toFixed(1)} × ${(80 / CM_PER_INCH).toFixed(1)} × ${(100 / CM_PER_INCH).toFixed(1)} in`,
  );
  t.equal(imperial.length(254), '100 in');
  t.equal(imperial.weight(1000), `${Math.round(1000 / KG_PER_POUND).toLocaleString('en-US')} lb`);
  t.equal(imperial.weight(12.5, 2), `${Number((12.5 / KG_PER_POUND).toFixed(2))} lb`);
  t.equal(imperial.distance(30.48 * 3), '3.00 ft');
  t.equal(imperial.perLengthUnit, 'lb/ft');
  // 1 kg/m = (1 / 0.45359237) lb per (1 / 0.3048) ft.
  t.ok(Math.abs(imperial.perLength(1) - 0.3048 / KG_PER_POUND) < 1e-12);
  t.equal(measureWords().units, 'metric');
});
