/**
 * The verifier's load model (solver/verify/load-bearing.ts) on hand-worked stacks: weight passes
 * down by contact area, loads add up through several levels, and the limits hold at equality.
 */
import t from 'tap';
import { contactsBelow } from '../../../solver/verify/contact.js';
import { loadedVehicles } from '../../../solver/verify/placed-unit.js';
import { restingWeights } from '../../../solver/verify/load-bearing.js';
import { verifyPlan } from '../../../solver/verify/verify.js';
import { gridPlan } from './plan-fixture.js';

// u0, u1: 100 × 100 floor units side by side (10 kg each); u2 (100 × 200, 20 kg) across both;
// u3 (50 × 50, 4 kg) on u2 over u0's half; u4 (100 × 100, 6 kg) on u2 over u1's half.
const space = { length: 200, width: 100, height: 200 };
const stack = () =>
  gridPlan(space, [
    { x: 0, y: 0, z: 0, length: 100, width: 100, height: 40, weight: 10 },
    { x: 100, y: 0, z: 0, length: 100, width: 100, height: 40, weight: 10 },
    { x: 0, y: 40, z: 0, length: 200, width: 100, height: 30, weight: 20 },
    { x: 0, y: 70, z: 0, length: 50, width: 50, height: 30, weight: 4 },
    { x: 100, y: 70, z: 0, length: 100, width: 100, height: 30, weight: 6 },
  ]);

t.test('weight passes down in proportion to the contact area, through every level', async (t) => {
  const { model, plan } = stack();
  const [vehicle] = loadedVehicles(model, plan);
  const resting = restingWeights(vehicle!, contactsBelow(vehicle!.units));
  // u2 carries 4 + 6 = 10 kg and presses with 30 kg, half on each floor unit.
  t.same(resting, [15, 15, 10, 0, 0]);
});

t.test('limits hold at equality and break just above it', async (t) => {
  const { model, plan } = stack();
  model.items[0]!.maxStackWeight = 15;
  model.items[2]!.maxStackWeight = 10;
  // u0: (10 + 15) kg over 1 m² (10 000 cm²) = 25 kg/m².
  model.vehicles[0]!.floorLoadCapacity = 25;
  model.maxStackDensity = 25;
  t.same(verifyPlan(model, plan), []);
  model.items[2]!.maxStackWeight = 9.9;
  model.vehicles[0]!.floorLoadCapacity = 24.9;
  const rules = verifyPlan(model, plan).map((v) => `${v.rule} ${v.item_id}`);
  t.same(rules, ['floor_load u0', 'floor_load u1', 'stack_weight u2']);
});
