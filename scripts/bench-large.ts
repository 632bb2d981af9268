/**
 * `npm run bench -- large [--units 2000] [--types 50] [--vehicles 20] [--threads n]`: a large
 * job: `units` boxes of `types` kinds (sizes 20–120 cm, weights 5–60 kg, drawn from a
 * fixed seed) into 13.6 m trailers in auto mode, at most `vehicles`, with the automatic time
 * limit (the API's: 2 s + 15 ms per unit, at most 30 s). Prints the time to the first complete
 * plan, then the plan at the time limit: vehicles used, units placed, mean fill, and whether it
 * verifies.
 */
import type { ItemModel, PackModel } from '../domain/pack/plan.js';
import { computeBudgetMs } from '../domain/pack/resolve/budget.js';
import { mulberry32 } from '../solver/search/prng.js';
import { Solver } from '../solver/solve.js';
import { verifyPlan } from '../solver/verify/verify.js';

/** Options of the `large` bench (strings as commander gives them). */
export interface LargeBenchOptions {
  units: string;
  types: string;
  vehicles: string;
  threads?: string;
}

/** The large job's model (deterministic for the same arguments). */
export function largeModel(units: number, types: number, vehicles: number): PackModel {
  const rng = mulberry32(20261123);
  const size = (): number => 20 + Math.floor(rng() * 101);
  const items: ItemModel[] = [];
  for (let i = 0; i < types; i++) {
    const quantity = Math.floor(units / types) + (i < units % types ? 1 : 0);
    items.push({
      id: `sku${i + 1}`,
      label: `SKU ${i + 1}`,
      shape: 'box',
      length: size(),
      width: size(),
      height: size(),
      weight: 5 + Math.floor(rng() * 56),
      quantity,
      stackable: true,
      maxStackWeight: 0,
      nestingHeight: 0,
      orientations: ['lwh', 'wlh'],
      priority: 0,
      hazardous: false,
      group: null,
      groupOrder: Number.MAX_SAFE_INTEGER,
      color: null,
    });
  }
  return {
    vehicles: [
      {
        id: 'trailer',
        name: 'Trailer 13.6 m',
        type: 'trailer',
        length: 1360,
        width: 248,
        height: 270,
        maxWeight: 24_000,
        quantity: 1,
        blockedAreas: [],
        floorLoadCapacity: 0,
        axles: null,
        auxDeck: null,
      },
    ],
    items,
    packingMode: 'auto',
    maxVehicles: vehicles,
    allowOverweight: false,
    maxStackItems: 0,
    maxStackDensity: 0,
    enforceAxle: false,
    groupRouting: 'none',
    budgetMs: computeBudgetMs(0, units, 90),
    seed: 1,
  };
}

/** Runs the bench (prints its figures). */
export async function benchLarge(o: LargeBenchOptions): Promise<void> {
  const units = Number(o.units),
    types = Number(o.types),
    vehicles = Number(o.vehicles);
  const model = largeModel(units, types, vehicles);
  const solver = new Solver(o.threads ? { threads: Number(o.threads) } : {});
  try {
    await solver.warm();
    console.log(
      `large job: ${units} units of ${types} types, at most ${vehicles} trailers, automatic time limit ${model.budgetMs} ms, ${solver.threads} threads`,
    );
    const out = await solver.solve(model);
    if (out.status !== 'solved') {
      console.log(`no plan: ${out.status === 'failed' ? out.error.message : out.status}`);
      return;
    }
    const vs = out.plan.vehicles;
    const placed = vs.reduce((s, v) => s + v.items_placed, 0);
    const fill = vs.reduce((s, v) => s + v.volume_utilization, 0) / Math.max(1, vs.length);
    console.log(`first complete plan after ${out.firstPlanMs ?? 'none'} ms`);
    console.log(
      `at ${out.computeMs} ms: ${vs.length} vehicles, ${placed}/${units} units placed, mean fill ${(100 * fill).toFixed(2)} %, ` +
        `${out.candidates} candidates, strategy ${out.strategy}, ${verifyPlan(model, out.plan).length === 0 ? 'verified' : 'NOT VERIFIED'}`,
    );
  } finally {
    await solver.close();
  }
}
