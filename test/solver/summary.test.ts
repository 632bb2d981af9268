/** Job summary figures (solver/summary.ts): never NaN, whatever the per-vehicle figures are. */
import t from 'tap';
import type { Plan, PlannedVehicle } from '../../domain/pack/plan.js';
import { summarizePlan, usableUtilization } from '../../solver/summary.js';

const vehicle = (volumeUtilization: number): PlannedVehicle => ({
  index: 0,
  vehicle_id: 'v',
  copy: 1,
  auto_added: false,
  name: 'v',
  type: 'truck',
  length: 1e-300,
  width: 1e-300,
  height: 1e-300,
  max_weight: 10,
  items_placed: 0,
  total_weight: 2.5,
  volume_utilization: volumeUtilization,
  weight_utilization: 0.25,
  center_of_gravity: { x: 0, y: 0, z: 0 },
  placements: [],
});

t.test('usableUtilization keeps 0–1 and turns what is not a number into 0', async (t) => {
  t.same([0.5, 1.0000001, -1e-12, NaN, Infinity, -Infinity].map(usableUtilization), [0.5, 1, 0, 0, 0, 0]);
});

t.test('a vehicle whose cargo volume underflowed (NaN figure) counts as 0 in the mean', async (t) => {
  const plan: Plan = { vehicles: [vehicle(NaN), vehicle(0.5)], unplaced: [] };
  const summary = summarizePlan(plan);
  t.equal(summary.volume_utilization, 0.25);
  t.equal(summary.total_weight, 5);
  t.equal(JSON.parse(JSON.stringify(summary)).volume_utilization, 0.25, 'a number in JSON, not null');
});
