/**
 * The verifier's safe stacking rules on hand-made plans (solver/verify/pallet-base.ts,
 * heavy-on-light.ts, slenderness.ts): each rule fires on the plan that breaks it, stays quiet on
 * the plan that keeps it (at equality too), is off when the options turn it off, and is off for
 * models stored before the rules (no `stacking`).
 */
import t from 'tap';
import { STACKING_DEFAULTS, type StackingRules } from '../../../domain/pack/plan.js';
import { verifyPlan } from '../../../solver/verify/verify.js';
import { gridPlan, type GridBox } from './plan-fixture.js';

const van = { length: 400, width: 200, height: 250 };
const rulesOf = (boxes: readonly GridBox[], stacking: StackingRules | null = STACKING_DEFAULTS) => {
  const { model, plan } = gridPlan(van, boxes);
  if (stacking) model.stacking = stacking;
  return { model, plan, rules: () => verifyPlan(model, plan).map((v) => v.rule) };
};

t.test('a pallet on cartons breaks pallets_on_cartons; on a pallet or the floor it does not', async (t) => {
  // u0: a carton on the floor against the front wall; u1: a pallet on it.
  const onCarton = rulesOf([
    { x: 0, y: 0, z: 0, length: 120, width: 80, height: 40, weight: 200 },
    { x: 0, y: 40, z: 0, length: 120, width: 80, height: 30, weight: 100 },
  ]);
  onCarton.model.items[1]!.shape = 'pallet';
  t.same(onCarton.rules(), ['pallets_on_cartons']);
  const v = verifyPlan(onCarton.model, onCarton.plan)[0]!;
  t.match(v, { item_id: 'u1', instance: 1, others: [{ item_id: 'u0', instance: 1 }] });
  t.match(v.message, /Pallet u1#1 .* rests on u0#1 \(box\)/);

  onCarton.model.items[0]!.shape = 'pallet';
  t.same(onCarton.rules(), [], 'a pallet on a pallet');
  onCarton.model.items[0]!.shape = 'box';
  onCarton.model.stacking = { ...STACKING_DEFAULTS, palletsOnCartons: true };
  t.same(onCarton.rules(), [], 'pallets_on_cartons: true allows it');
  delete onCarton.model.stacking;
  t.same(onCarton.rules(), [], 'a model stored before the rules has them off');
});

t.test('heavy_on_light: a unit weighs at most the ratio times the units under it together', async (t) => {
  // u0, u1: two 10 kg cartons side by side; u2 across both.
  const boxes = (top: number): GridBox[] => [
    { x: 0, y: 0, z: 0, length: 50, width: 100, height: 40, weight: 10 },
    { x: 0, y: 0, z: 100, length: 50, width: 100, height: 40, weight: 10 },
    { x: 0, y: 40, z: 0, length: 50, width: 200, height: 20, weight: top },
  ];
  t.same(rulesOf(boxes(40)).rules(), [], '40 kg on 2 × 10 kg at ratio 2: at the limit');
  const over = rulesOf(boxes(40.1));
  t.same(over.rules(), ['heavy_on_light']);
  t.match(
    verifyPlan(over.model, over.plan)[0]!.message,
    /weighs 40\.1 kg and rests on 2 units of 20 kg together; heavy_on_light 2 allows at most 40 kg/,
  );
  t.same(rulesOf(boxes(40.1), { ...STACKING_DEFAULTS, heavyOnLight: 3 }).rules(), [], 'ratio 3');
  t.same(rulesOf(boxes(400), { ...STACKING_DEFAULTS, heavyOnLight: 0 }).rules(), [], 'ratio 0: off');
});

t.test(
  'max_slenderness: a free column fails at the step it grows too tall; walls and loaded neighbours hold',
  async (t) => {
    // A column of four 25 × 25 × 30 cartons in the middle of the floor: 60 cm after its second
    // unit (≤ 3 × 25), 90 cm after its third (> 75).
    const column = (x: number, z: number): GridBox[] =>
      [0, 30, 60, 90].map((y) => ({ x, y, z, length: 25, width: 25, height: 30, weight: 5 }));
    const middle = rulesOf(column(100, 100));
    const found = verifyPlan(middle.model, middle.plan);
    t.same(
      found.map((v) => [v.rule, v.item_id]),
      [['max_slenderness', 'u2']],
      'reported once, at the step of the third unit',
    );
    t.match(
      found[0]!.message,
      /After step 3 \(u2#1\), a stack of 3 units in vehicle 0 stands 90 cm tall on a base 25 cm along the length \(x\), held up to y = 0 cm: 90 cm stand free, more than max_slenderness 3 × 25 cm = 75 cm/,
    );
    t.same(rulesOf(column(0, 0)).rules(), [], 'in the front corner: the front wall and a side wall hold it');
    t.same(rulesOf(column(0, 100)).rules(), ['max_slenderness'], 'against the front wall only: free across the width');
    t.same(
      rulesOf(column(100, 100), { ...STACKING_DEFAULTS, maxSlenderness: 5 }).rules(),
      [],
      'ratio 5: 120 cm on 25 cm',
    );
    t.same(rulesOf(column(100, 100), { ...STACKING_DEFAULTS, maxSlenderness: 0 }).rules(), [], 'ratio 0: off');
    t.same(rulesOf(column(100, 100), null).rules(), [], 'no stacking in the model: off');

    // Neighbours of the column's full height on both sides it could fall to, loaded first: held.
    const neighbours: GridBox[] = [
      { x: 75, y: 0, z: 100, length: 25, width: 25, height: 120, weight: 5 },
      { x: 100, y: 0, z: 75, length: 25, width: 25, height: 120, weight: 5 },
    ];
    t.same(rulesOf([...neighbours, ...column(100, 100)]).rules(), [], 'held along x and z by units loaded before');
    // The same neighbours loaded after the column: it stood free at its own steps.
    t.same(
      rulesOf([...column(100, 100), ...neighbours]).rules(),
      ['max_slenderness'],
      'a stack that becomes stable only once later units arrive is not stable at its own step',
    );
  },
);

t.test('max_slenderness: a stack bridged across columns counts its whole base', async (t) => {
  // Two touching columns of two 25 × 100 × 40 cartons (x 100–125 and 125–150), then a 50 cm
  // plank across both at y 80: one stack 130 cm tall on a base 50 cm long. Each column alone
  // leans on the other, loaded before it, up to 40 cm (40 cm free ≤ 2.5 × 25).
  const boxes: GridBox[] = [
    { x: 100, y: 0, z: 50, length: 25, width: 100, height: 40, weight: 5 },
    { x: 125, y: 0, z: 50, length: 25, width: 100, height: 40, weight: 5 },
    { x: 100, y: 40, z: 50, length: 25, width: 100, height: 40, weight: 5 },
    { x: 125, y: 40, z: 50, length: 25, width: 100, height: 40, weight: 5 },
    { x: 100, y: 80, z: 50, length: 50, width: 100, height: 50, weight: 5 },
  ];
  const found = verifyPlan(
    rulesOf(boxes, { ...STACKING_DEFAULTS, maxSlenderness: 2.5 }).model,
    gridPlan(van, boxes).plan,
  );
  t.same(
    found.map((v) => [v.rule, v.item_id]),
    [['max_slenderness', 'u4']],
    '130 cm on 50 cm is over 2.5 × 50 = 125',
  );
  t.match(found[0]!.message, /a stack of 5 units .* stands 130 cm tall on a base 50 cm along the length/);
  t.same(rulesOf(boxes, { ...STACKING_DEFAULTS, maxSlenderness: 2.6 }).rules(), [], '130 ≤ 2.6 × 50');
});
