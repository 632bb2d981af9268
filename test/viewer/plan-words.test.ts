/** Plan values in words (viewer/src/plan-words.ts): orientations, unplaced reasons, instance ranges. */
import t from 'tap';
import { ALL_ORIENTATIONS } from '../../domain/pack/plan.js';
import { REASON_TEXT, instanceRanges, orientationWords } from '../../viewer/src/plan-words.js';

t.test('every orientation in words', async (t) => {
  t.same(Object.fromEntries(ALL_ORIENTATIONS.map((o) => [o, orientationWords(o)])), {
    lwh: 'as defined',
    wlh: 'turned 90° about the vertical axis',
    lhw: 'tipped: its length along the vehicle, height across, width up',
    hwl: 'tipped: its height along the vehicle, width across, length up',
    whl: 'tipped: its width along the vehicle, height across, length up',
    hlw: 'tipped: its height along the vehicle, length across, width up',
  });
});

t.test('every unplaced reason of the spec is explained', async (t) => {
  t.same(Object.keys(REASON_TEXT).sort(), [
    'axle_limit',
    'load_limit',
    'no_space',
    'rule_heavy_on_light',
    'rule_max_slenderness',
    'rule_pallets_on_cartons',
    'time_limit',
    'vehicle_limit',
    'weight_limit',
  ]);
  for (const text of Object.values(REASON_TEXT)) t.ok(text.length > 10);
});

t.test('instance numbers as ranges', async (t) => {
  t.equal(instanceRanges([]), '');
  t.equal(instanceRanges([5]), '5');
  t.equal(instanceRanges([9, 1, 2, 3, 4, 7, 10]), '1–4, 7, 9–10');
  t.equal(instanceRanges([3, 5, 7]), '3, 5, 7');
  t.equal(instanceRanges(Array.from({ length: 70 }, (_, i) => 331 + i)), '331–400');
});
