/**
 * Hazardous items in the search (solver/search/hazard.ts): two hazardous items and ordinary
 * cartons in one truck. Hazardous units stand on the floor, the two hazardous items keep 50 cm
 * apart, and the search's clearance is the verifier's.
 */
import t from 'tap';
import type { ItemModel, PackModel } from '../../../domain/pack/plan.js';
import { HAZARD_CLEARANCE_CM } from '../../../solver/search/hazard.js';
import { search } from '../../../solver/search/search.js';
import { HAZARD_CLEARANCE_CM as VERIFIED_CLEARANCE } from '../../../solver/verify/hazardous.js';
import { verifyPlan } from '../../../solver/verify/verify.js';

const item = (id: string, o: Partial<ItemModel>): ItemModel => ({
  id, label: id, shape: 'box', length: 60, width: 40, height: 40, weight: 10, quantity: 20, stackable: true,
  maxStackWeight: 0, nestingHeight: 0, orientations: ['lwh', 'wlh'], priority: 0, hazardous: false, group: null,
  groupOrder: Number.MAX_SAFE_INTEGER, color: null, ...o,
});

t.test('hazardous units stand on the floor, two hazardous items 50 cm apart', async (t) => {
  t.equal(HAZARD_CLEARANCE_CM, VERIFIED_CLEARANCE, 'the search keeps the clearance the verifier checks');
  const model: PackModel = {
    vehicles: [{ id: 'v', name: 'Box truck', type: 'truck', length: 720, width: 245, height: 240, maxWeight: 10_000, quantity: 1, blockedAreas: [], floorLoadCapacity: 0, axles: null, auxDeck: null }],
    items: [
      item('acid', { shape: 'drum', length: 58, width: 58, height: 90, weight: 230, quantity: 6, hazardous: true, orientations: ['lwh'] }),
      item('paint', { length: 40, width: 30, height: 30, weight: 12, quantity: 24, hazardous: true }),
      item('carton', { quantity: 60 }),
    ],
    packingMode: 'fleet_only', maxVehicles: 1, allowOverweight: false, maxStackItems: 0, maxStackDensity: 0,
    enforceAxle: false, groupRouting: 'none', budgetMs: 500, seed: 1,
  };
  const plan = search({ model, worker: 0, stride: 1, deadline: Date.now() + 3000 }).plans[0]!.plan;
  t.same(verifyPlan(model, plan), []);
  t.equal(plan.unplaced.length, 0, 'everything loads');
  const ps = plan.vehicles[0]!.placements;
  t.ok(ps.filter((p) => p.item_id !== 'carton').every((p) => p.y === 0), 'hazardous units on the floor');
  const box = (id: string) => {
    const q = ps.filter((p) => p.item_id === id);
    return { x0: Math.min(...q.map((p) => p.x)), x1: Math.max(...q.map((p) => p.x + p.length)), z0: Math.min(...q.map((p) => p.z)), z1: Math.max(...q.map((p) => p.z + p.width)) };
  };
  const a = box('acid'), b = box('paint');
  const gap = Math.max(a.x0 - b.x1, b.x0 - a.x1, a.z0 - b.z1, b.z0 - a.z1);
  t.ok(gap >= 50, `acid and paint areas ${gap} cm apart`);
});
