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

/** Deterministic search budget of these tests: block placements per worker (search.ts SearchTask.work). */
const SEARCH_WORK = 4000;

const item = (id: string, o: Partial<ItemModel>): ItemModel => ({
  id,
  label: id,
  shape: 'box',
  length: 60,
  width: 40,
  height: 40,
  weight: 10,
  quantity: 20,
  stackable: true,
  maxStackWeight: 0,
  nestingHeight: 0,
  orientations: ['lwh', 'wlh'],
  priority: 0,
  hazardous: false,
  group: null,
  groupOrder: Number.MAX_SAFE_INTEGER,
  color: null,
  ...o,
});

t.test('hazardous units stand on the floor, two hazardous items 50 cm apart', async (t) => {
  t.equal(HAZARD_CLEARANCE_CM, VERIFIED_CLEARANCE, 'the search keeps the clearance the verifier checks');
  const model: PackModel = {
    vehicles: [
      {
        id: 'v',
        name: 'Box truck',
        type: 'truck',
        length: 720,
        width: 245,
        height: 240,
        maxWeight: 10_000,
        quantity: 1,
        blockedAreas: [],
        floorLoadCapacity: 0,
        axles: null,
        auxDeck: null,
      },
    ],
    items: [
      item('acid', {
        shape: 'drum',
        length: 58,
        width: 58,
        height: 90,
        weight: 230,
        quantity: 6,
        hazardous: true,
        orientations: ['lwh'],
      }),
      item('paint', { length: 40, width: 30, height: 30, weight: 12, quantity: 24, hazardous: true }),
      item('carton', { quantity: 60 }),
    ],
    packingMode: 'fleet_only',
    maxVehicles: 1,
    allowOverweight: false,
    maxStackItems: 0,
    maxStackDensity: 0,
    enforceAxle: false,
    groupRouting: 'none',
    budgetMs: 500,
    seed: 1,
  };
  const plan = search({ model, worker: 0, stride: 1, deadline: Date.now() + 3000, work: SEARCH_WORK }).plans[0]!.plan;
  t.same(verifyPlan(model, plan), []);
  t.equal(plan.unplaced.length, 0, 'everything loads');
  const ps = plan.vehicles[0]!.placements;
  t.ok(
    ps.filter((p) => p.item_id !== 'carton').every((p) => p.y === 0),
    'hazardous units on the floor',
  );
  // Every acid unit and every paint unit at least 50 cm apart along x or along z.
  const acid = ps.filter((p) => p.item_id === 'acid'),
    paint = ps.filter((p) => p.item_id === 'paint');
  const gaps = acid.flatMap((a) =>
    paint.map((b) =>
      Math.max(a.x - (b.x + b.length), b.x - (a.x + a.length), a.z - (b.z + b.width), b.z - (a.z + a.width)),
    ),
  );
  t.equal(gaps.length, 6 * 24);
  t.ok(Math.min(...gaps) >= 50, `closest acid and paint units ${Math.min(...gaps)} cm apart`);
});
