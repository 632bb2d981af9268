/**
 * Round cargo, the hand-worked cases of: real requests (wire JSON, checked like POST
 * /v1/pack checks them) solved through the solver in deterministic mode (a work limit, not
 * time), each plan checked by the verifier. The units per vehicle are printed for the
 * resolution note.
 */
import t, { type Test } from 'tap';
import type { PackModel, Plan } from '../../../domain/pack/plan.js';
import { Solver } from '../../../solver/solve.js';
import { verifyPlan } from '../../../solver/verify/verify.js';
import { modelOf } from '../../helpers/example-model.js';
import { solverThreadModule } from '../../helpers/compiled-service.js';

/** Block placements per worker: the deterministic budget of these solves (work-budget.ts). */
const WORK = 1500;

const container20 = {
  id: 'c20',
  type: 'container',
  name: '20 ft',
  length: 589,
  width: 235,
  height: 239,
  max_weight: 28000,
};
const trailer = {
  id: 'trailer',
  type: 'trailer',
  name: '13.6 m',
  length: 1360,
  width: 248,
  height: 270,
  max_weight: 24000,
};
/** The 200 l drum: radius 29.5 cm, height 88 cm. */
const drum = (quantity: number, stackable: boolean) => ({
  id: 'drum',
  label: 'Drum 200 l',
  shape: 'drum',
  radius: 29.5,
  height: 88,
  weight: 210,
  quantity,
  stackable,
});

const solver = new Solver({ threads: 1, threadModule: solverThreadModule() });
t.teardown(() => solver.close());

/** Solves `body` with the work limit; fails the test unless solved and verified. */
async function solve(t: Test, body: unknown): Promise<{ model: PackModel; plan: Plan }> {
  const model: PackModel = { ...modelOf(body).model, budgetMs: 300_000, workLimit: WORK };
  const out = await solver.solve(model);
  if (out.status !== 'solved')
    throw new Error(`not solved: ${out.status} ${out.status === 'failed' ? out.error.message : ''}`);
  t.same(verifyPlan(model, out.plan), [], 'the verifier finds nothing');
  t.comment(
    `units per vehicle: ${out.plan.vehicles.map((v) => `${v.name} ${v.items_placed}`).join(', ')}; unplaced ${out.plan.unplaced.length}`,
  );
  return { model, plan: out.plan };
}

const uprightRoundPlacements = (plan: Plan, id: string) =>
  plan.vehicles.flatMap((v) => v.placements.filter((p) => p.item_id === id));

t.test('200 l drums, one layer on a 20 ft container floor: 36 staggered (the square grid holds 27)', async (t) => {
  const { plan } = await solve(t, {
    vehicles: [container20],
    items: [drum(40, false)],
    options: { packing_mode: 'fleet_only' },
  });
  t.equal(plan.vehicles.length, 1);
  t.equal(plan.vehicles[0]!.items_placed, 36);
  t.equal(plan.unplaced.length, 4);
  const ps = uprightRoundPlacements(plan, 'drum');
  t.ok(
    ps.every((p) => p.y === 0 && p.length === 59 && p.width === 59 && p.height === 88),
    'on the floor, bounding boxes 59 × 59 × 88',
  );
  // Staggered: four lines across the width, so four distinct z of the bounding boxes.
  t.equal(new Set(ps.map((p) => p.z.toFixed(6))).size, 4);
});

t.test('200 l drums in a 13.6 m trailer 248 cm wide: at least 92 (the square grid wins)', async (t) => {
  const { plan } = await solve(t, {
    vehicles: [trailer],
    items: [drum(100, false)],
    options: { packing_mode: 'fleet_only' },
  });
  t.equal(plan.vehicles.length, 1);
  t.ok(plan.vehicles[0]!.items_placed >= 92, `${plan.vehicles[0]!.items_placed} ≥ 92`);
});

t.test(
  'stackable 200 l drums in two layers in a 20 ft container: 72, each upper drum exactly on a lower one',
  async (t) => {
    const { plan } = await solve(t, {
      vehicles: [container20],
      items: [drum(80, true)],
      options: { packing_mode: 'fleet_only' },
    });
    t.equal(plan.vehicles[0]!.items_placed, 72);
    const ps = uprightRoundPlacements(plan, 'drum');
    const upper = ps.filter((p) => p.y > 0);
    t.equal(upper.length, 36);
    t.ok(
      upper.every(
        (u) => u.y === 88 && ps.some((l) => l.y === 0 && Math.abs(l.x - u.x) < 1e-9 && Math.abs(l.z - u.z) < 1e-9),
      ),
      'drum columns',
    );
  },
);

t.test('a mixed load of drums and 120 × 80 pallets in one trailer: all placed', async (t) => {
  const pallet = {
    id: 'pallet',
    label: 'EUR pallet',
    shape: 'pallet',
    length: 120,
    width: 80,
    height: 140,
    weight: 450,
    quantity: 18,
    stackable: false,
  };
  const { plan } = await solve(t, {
    vehicles: [trailer],
    items: [drum(40, true), pallet],
    options: { packing_mode: 'fleet_only' },
  });
  t.equal(plan.vehicles.length, 1);
  t.equal(plan.unplaced.length, 0);
  t.equal(plan.vehicles[0]!.items_placed, 58);
});

t.test('cylinders that may lie (rolls), upright cylinders and boxes together: verified', async (t) => {
  const roll = {
    id: 'roll',
    label: 'Paper roll',
    shape: 'cylinder',
    radius: 50,
    height: 120,
    weight: 600,
    quantity: 8,
    rotation: 'all',
  };
  const coil = {
    id: 'coil',
    label: 'Cable drum',
    shape: 'cylinder',
    radius: 40,
    height: 60,
    weight: 300,
    quantity: 12,
    rotation: 'upright',
    stackable: false,
  };
  const box = { id: 'box', label: 'Carton', length: 60, width: 40, height: 40, weight: 20, quantity: 60 };
  const { plan } = await solve(t, {
    vehicles: [trailer],
    items: [roll, coil, box],
    options: { packing_mode: 'fleet_only' },
  });
  t.equal(plan.unplaced.length, 0);
  const coils = uprightRoundPlacements(plan, 'coil');
  t.ok(
    coils.every((p) => p.length === 80 && p.width === 80 && p.height === 60),
    'upright cylinders: 2r × 2r × h',
  );
});
