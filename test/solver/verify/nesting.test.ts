/**
 * Nesting in the verifier (solver/verify/nesting.ts): identical buckets telescoped into each
 * other verify; the same overlap without nesting, a wrong offset or a missing middle bucket do not.
 */
import t from 'tap';
import { verifyPlan } from '../../../solver/verify/verify.js';
import { gridPlan } from './plan-fixture.js';

/** Buckets 40 × 40 × 30 cm nesting 20 cm: each one 10 cm above the one under it. */
function column(ys: number[], nesting = 20) {
  const p = gridPlan(
    { length: 100, width: 100, height: 100 },
    ys.map((y) => ({ x: 0, y, z: 0, length: 40, width: 40, height: 30, weight: 1 })),
  );
  // One item for the whole column: the fixture makes one item per box.
  p.model.items = [
    { ...p.model.items[0]!, id: 'bucket', label: 'bucket', quantity: ys.length, nestingHeight: nesting },
  ];
  p.plan.vehicles[0]!.placements.forEach((q, i) =>
    Object.assign(q, { item_id: 'bucket', label: 'bucket', instance: i + 1 }),
  );
  return p;
}
const rules = (p: ReturnType<typeof column>) => verifyPlan(p.model, p.plan).map((v) => `${v.rule}: ${v.message}`);

t.test('a telescoped column of identical buckets verifies', async (t) => {
  const p = column([0, 10, 20, 30]);
  // Each nested bucket adds 10 cm: 40 × 40 × (30 + 3 · 10) = 96 000 of 1 000 000 cm³.
  p.plan.vehicles[0]!.volume_utilization = 0.096;
  t.same(rules(p), []);
});

t.test('the same overlap without nesting, off the pitch, or with a bucket missing does not', async (t) => {
  t.match(rules(column([0, 10], 0)), [
    /overlap: bucket#1 and bucket#2 in vehicle 0 overlap by 40 × 40 × 20 cm/,
    /support: bucket#2 .* floats at y = 10 cm/,
  ]);
  t.match(rules(column([0, 12])), [
    /overlap: bucket#1 and bucket#2 .* overlap by 40 × 40 × 18 cm/,
    /support: bucket#2/,
  ]);
  t.match(rules(column([0, 20])), [/support: bucket#2 in vehicle 0 floats at y = 20 cm/]);
});
