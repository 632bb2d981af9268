/**
 * Loading order on a double-deck vehicle: the floor units under the second deck
 * are loaded before the deck units above them, section by section from the front wall. Checked
 * by hand on small layouts, on the example chemicals-double-deck-trailer.json and on random
 * double-deck plans of the search (fast-check); the oracle reads only the placements.
 */
import { readFileSync } from 'node:fs';
import t from 'tap';
import fc from 'fast-check';
import type { ItemModel, PackModel, Placement, Plan, VehicleModel } from '../../../domain/pack/plan.js';
import { loadingSteps, underDeck } from '../../../solver/search/loading-steps.js';
import { search } from '../../../solver/search/search.js';
import { verifyPlan } from '../../../solver/verify/verify.js';
import { modelOf } from '../../helpers/example-model.js';

const E = 1e-6;
const b = (x: number, y: number, z: number, dx: number, dy: number, dz: number, rank = 0) => ({
  x,
  y,
  z,
  dx,
  dy,
  dz,
  rank,
});

/**
 * Deck-order problems of one vehicle, independent of the search code: a unit on or above the
 * deck loaded before a unit under the deck whose length range overlaps its own.
 */
function deckOrderProblems(placements: readonly Placement[], deck: number): string[] {
  const out: string[] = [];
  const under = placements.filter((p) => p.y + p.height <= deck + E);
  for (const d of placements) {
    if (d.y < deck - E) continue;
    for (const f of under) {
      const overlap = Math.min(d.x + d.length, f.x + f.length) - Math.max(d.x, f.x);
      if (overlap > E && f.step > d.step) {
        out.push(
          `${d.item_id}#${d.instance} (step ${d.step}, x ${d.x}–${d.x + d.length}) before ${f.item_id}#${f.instance} under it (step ${f.step}, x ${f.x}–${f.x + f.length})`,
        );
      }
    }
  }
  return out;
}

t.test('underDeck: a deck unit waits for the floor units under its stretch of length only', async (t) => {
  // Deck at 100 cm. Floor: 0–80, 80–160 (and a unit stacked on it), 160–240. Deck: 60–180, 180–240.
  const boxes = [
    b(0, 0, 0, 80, 90, 100),
    b(80, 0, 0, 80, 50, 100),
    b(80, 50, 0, 80, 40, 100),
    b(160, 0, 0, 80, 90, 100),
    b(60, 100, 0, 120, 50, 100),
    b(180, 100, 0, 60, 50, 100),
  ];
  t.same(underDeck(boxes, 100), [[], [], [], [], [0, 1, 2, 3], [3]]);
  t.same(underDeck(boxes, null), [[], [], [], [], [], []], 'nothing without a deck');
  // The deck units after the floor units under them; section by section from the front wall.
  t.same(loadingSteps(boxes, 100), [1, 2, 3, 4, 5, 6]);
});

t.test('underDeck: front to back, the deck over a section loads before the floor of the next', async (t) => {
  // Floor 0–60, 60–120, 120–180 under a deck at 100 cm; deck units over 0–90 and 90–180.
  const boxes = [
    b(0, 0, 0, 60, 90, 100),
    b(60, 0, 0, 60, 90, 100),
    b(120, 0, 0, 60, 90, 100),
    b(0, 100, 0, 90, 50, 100),
    b(90, 100, 0, 90, 50, 100),
  ];
  // Without the rule a deck unit (it rests on the deck) loads as soon as it is the nearest to the front wall.
  t.same(loadingSteps(boxes, null), [1, 3, 5, 2, 4]);
  t.same(loadingSteps(boxes, 100), [1, 2, 4, 3, 5], 'floor 0–120, deck 0–90, floor 120–180, deck 90–180');
  const shifted = [b(0, 0, 0, 100, 90, 100), b(100, 0, 0, 100, 90, 100), b(50, 100, 0, 100, 50, 100)];
  t.same(loadingSteps(shifted, 100), [1, 2, 3], 'a deck unit over two floor sections waits for both');
});

t.test(
  'underDeck: with a group routing a later group under the deck does not hold an earlier group back',
  async (t) => {
    const boxes = [b(0, 0, 0, 100, 90, 100, 1), b(0, 100, 0, 100, 50, 100, 0)];
    t.same(underDeck(boxes, 100), [[], []]);
    t.same(loadingSteps(boxes, 100), [2, 1]);
  },
);

t.test('the example double-deck trailer: every deck unit after the floor units under it', async (t) => {
  const body = JSON.parse(
    readFileSync(new URL('../../../examples/chemicals-double-deck-trailer.json', import.meta.url), 'utf8'),
  );
  const { model } = modelOf(body);
  const plan = search({ model: { ...model, budgetMs: 2000 }, worker: 0, stride: 1, deadline: Date.now() + 3000 })
    .plans[0]!.plan;
  t.same(verifyPlan(model, plan), [], 'the plan passes the verifier');
  let deckUnits = 0;
  for (const v of plan.vehicles) {
    const deck = model.vehicles.find((d) => d.id === v.vehicle_id)!.auxDeck!.height;
    deckUnits += v.placements.filter((p) => p.y >= deck - E).length;
    const floorUnder = v.placements.filter((p) => p.y + p.height <= deck + E).length;
    t.ok(floorUnder > 0, `${floorUnder} units under the deck`);
    t.same(deckOrderProblems(v.placements, deck), [], `vehicle ${v.index}: deck order`);
  }
  t.ok(deckUnits > 0, `${deckUnits} units on the deck`);
});

const trailer = (length: number, deck: number): VehicleModel => ({
  id: 'dd',
  name: 'Double-deck trailer',
  type: 'trailer',
  length,
  width: 248,
  height: deck + 150,
  maxWeight: 24_000,
  quantity: 1,
  blockedAreas: [],
  floorLoadCapacity: 0,
  axles: null,
  auxDeck: { height: deck, maxWeight: 8000 },
});
const item = fc.record({
  length: fc.integer({ min: 30, max: 130 }),
  width: fc.integer({ min: 30, max: 120 }),
  height: fc.integer({ min: 20, max: 140 }),
  quantity: fc.integer({ min: 1, max: 30 }),
  stackable: fc.boolean(),
  upright: fc.boolean(),
});

t.test(
  'random double-deck plans: every deck unit after the floor units under it, and the verifier agrees',
  async (t) => {
    let checked = 0,
      withDeckUnits = 0;
    fc.assert(
      fc.property(
        fc.integer({ min: 300, max: 1360 }),
        fc.integer({ min: 100, max: 160 }),
        fc.array(item, { minLength: 1, maxLength: 3 }),
        (length, deck, items) => {
          const model: PackModel = {
            vehicles: [trailer(length, deck)],
            items: items.map((it, i): ItemModel => ({
              id: `i${i}`,
              label: `item ${i}`,
              shape: 'box',
              length: it.length,
              width: it.width,
              height: it.height,
              weight: 20,
              quantity: it.quantity,
              stackable: it.stackable,
              maxStackWeight: 0,
              nestingHeight: 0,
              orientations: it.upright ? ['lwh', 'wlh'] : ['lwh', 'wlh', 'lhw', 'hwl', 'whl', 'hlw'],
              priority: 0,
              hazardous: false,
              group: null,
              groupOrder: Number.MAX_SAFE_INTEGER,
              color: null,
            })),
            packingMode: 'fleet_only',
            maxVehicles: 1,
            allowOverweight: false,
            maxStackItems: 0,
            maxStackDensity: 0,
            enforceAxle: false,
            groupRouting: 'none',
            budgetMs: 100,
            seed: 1,
          };
          const plan: Plan = search({ model, worker: 0, stride: 1, deadline: Date.now() + 400 }).plans[0]!.plan;
          const problems = plan.vehicles.flatMap((v) => deckOrderProblems(v.placements, deck));
          const steps = verifyPlan(model, plan).filter((x) => x.rule === 'steps');
          checked++;
          if (plan.vehicles.some((v) => v.placements.some((p) => p.y >= deck - E))) withDeckUnits++;
          return problems.length === 0 && steps.length === 0;
        },
      ),
      { numRuns: 40, seed: 9 },
    );
    t.equal(checked, 40);
    t.ok(withDeckUnits >= 10, `${withDeckUnits} of 40 plans have units on the deck`);
  },
);
