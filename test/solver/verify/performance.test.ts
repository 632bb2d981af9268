import t from 'tap';
import { performance } from 'node:perf_hooks';
import type { PackModel, Placement, Plan } from '../../../domain/pack/plan.js';
import { verifyPlan } from '../../../solver/verify/verify.js';
import { item, refigure } from './plan-fixture.js';

/** 2000 units of one 40 × 24 × 27 cm carton in an nx × nz × ny grid (x, z, y), loaded layer by layer. */
function cartonGrid(nx: number, nz: number, ny: number): { model: PackModel; plan: Plan } {
  const [l, w, h] = [40, 24, 27];
  const count = nx * nz * ny;
  const space = { length: nx * l, width: nz * w, height: ny * h };
  const placements: Placement[] = [];
  for (let y = 0; y < ny; y++) {
    for (let x = 0; x < nx; x++) {
      for (let z = 0; z < nz; z++) {
        const n = placements.length + 1;
        placements.push({
          item_id: 'carton',
          instance: n,
          label: 'carton',
          x: x * l,
          y: y * h,
          z: z * w,
          length: l,
          width: w,
          height: h,
          rotated: false,
          orientation: 'lwh',
          step: n,
          weight: 12.5,
        });
      }
    }
  }
  const model: PackModel = {
    vehicles: [
      {
        id: 'box',
        name: 'box',
        type: 'container',
        ...space,
        maxWeight: 30000,
        quantity: 1,
        blockedAreas: [],
        floorLoadCapacity: 0,
        axles: null,
        auxDeck: null,
      },
    ],
    items: [item({ id: 'carton', length: l, width: w, height: h, weight: 12.5, quantity: count })],
    packingMode: 'fleet_only',
    maxVehicles: 1,
    allowOverweight: false,
    maxStackItems: ny,
    maxStackDensity: 0,
    enforceAxle: false,
    groupRouting: 'none',
    budgetMs: 1000,
    seed: 1,
  };
  const vehicle = {
    index: 0,
    vehicle_id: 'box',
    copy: 1,
    auto_added: false,
    name: 'box',
    type: 'container' as const,
    ...space,
    max_weight: 30000,
    items_placed: 0,
    total_weight: 0,
    volume_utilization: 0,
    weight_utilization: 0,
    center_of_gravity: { x: 0, y: 0, z: 0 },
    placements,
  };
  refigure(vehicle);
  return { model, plan: { vehicles: [vehicle], unplaced: [] } };
}

function timeVerify(model: PackModel, plan: Plan): { ms: number; violations: number } {
  const start = performance.now();
  const violations = verifyPlan(model, plan).length;
  return { ms: performance.now() - start, violations };
}

const layouts: [string, number, number, number][] = [
  ['20 × 10 × 10 grid (x × z × y)', 20, 10, 10],
  ['1 × 40 × 50 slab (every unit in one x range: worst case of the x sweep)', 1, 40, 50],
  ['200 × 10 × 1 floor', 200, 10, 1],
];

for (const [name, nx, nz, ny] of layouts) {
  t.test(`2000 units, ${name}, verify fast and clean`, async (t) => {
    const { model, plan } = cartonGrid(nx, nz, ny);
    t.equal(plan.vehicles[0]!.placements.length, 2000);
    const cold = timeVerify(model, plan);
    const warm = timeVerify(model, plan);
    t.comment(
      `verifyPlan, 2000 units, ${name}: first run ${cold.ms.toFixed(1)} ms, second run ${warm.ms.toFixed(1)} ms`,
    );
    t.equal(cold.violations, 0);
    t.ok(cold.ms < 5000, `first run ${cold.ms.toFixed(1)} ms < 5 s`);
  });
}
