/**
 * Benchmark on the Alonso et al. (2019) multi-truck instances with axle-load limits
 * (benchmarks/alonso/alonso_2019, format in its SOURCE.md and readme.txt), adapted to box level:
 * - every product's demand for one delivery day becomes ceil(demand / items per layer) units of
 *   its layer (layer size mm → cm and weight; upright; turned about the vertical axis when the
 *   layer's z-rotation flag is 1);
 * - "at most k layers of this type in a pile" becomes max_stack_weight = (k − 1) · layer weight;
 * - pallets are left out (layers stand on the floor or on each other);
 * - the truck type: inner size, payload, two axles at the given distances from the cab (the
 *   cargo front) with their maximum loads, cargo only; auto mode adds trucks as needed.
 * The instance is solved twice in one run, with and without enforce_axle, and both plans are
 * verified. Printed per instance: units, lower bound on trucks (volume and payload), trucks used
 * and the largest axle load / its maximum over the trucks, for both runs.
 *
 *   npm run bench -- alonso [--instances 1-10] [--day 0] [--budget ms] [--threads n]
 */
import { readFileSync } from 'node:fs';
import type { ItemModel, PackModel, Plan } from '../domain/pack/plan.js';
import { Solver } from '../solver/solve.js';
import { verifyPlan } from '../solver/verify/verify.js';
import { parseRange } from './bench-br.js';

const ALONSO_DIR =
  process.env['ALONSO_DIR'] ?? new URL('../../shared/benchmarks/alonso/alonso_2019/', import.meta.url).pathname;

/** One instance as the solver sees it (enforceAxle set per run). */
export function alonsoModel(text: string, day: number, budgetMs: number, seed: number): PackModel {
  const sections = new Map<string, number[][]>();
  let current: number[][] = [];
  for (const line of text.split(/\r?\n/)) {
    const t = line.trim();
    if (t === '') continue;
    if (t.startsWith('#')) {
      current = [];
      sections.set(t.split(/\s+/)[0]!, current);
    } else current.push(t.split(/\s+/).map(Number));
  }
  const layers = new Map((sections.get('#layers') ?? []).map((r) => [r[0]!, r]));
  const truck = sections.get('#trucks')?.[0];
  if (!truck) throw new Error('no truck');
  const items: ItemModel[] = [];
  for (const p of sections.get('#products') ?? []) {
    if (p[1] !== day) continue;
    const layer = layers.get(p[13]!);
    if (!layer) throw new Error(`product ${p[0]}: no layer ${p[13]}`);
    const [, w, l, h, kg, rotZ, perLayer, maxLayers] = layer as [
      number,
      number,
      number,
      number,
      number,
      number,
      number,
      number,
    ];
    const quantity = Math.ceil(p[2]! / perLayer);
    if (quantity < 1) continue;
    items.push({
      id: `p${p[0]}`,
      label: `product ${p[0]}`,
      shape: 'box',
      length: l / 10,
      width: w / 10,
      height: h / 10,
      weight: kg,
      quantity,
      stackable: maxLayers > 1,
      maxStackWeight: maxLayers > 1 ? (maxLayers - 1) * kg : 0,
      nestingHeight: 0,
      orientations: rotZ === 1 ? ['lwh', 'wlh'] : ['lwh'],
      priority: 0,
      hazardous: false,
      group: null,
      groupOrder: Number.MAX_SAFE_INTEGER,
      color: null,
    });
  }
  const [, tw, tl, th, payload, a1, a2, max1, max2] = truck as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  return {
    vehicles: [
      {
        id: 'truck',
        name: 'ORTEC truck',
        type: 'trailer',
        length: tl / 10,
        width: tw / 10,
        height: th / 10,
        maxWeight: payload,
        quantity: 1,
        blockedAreas: [],
        floorLoadCapacity: 0,
        auxDeck: null,
        axles: {
          kind: 'axles',
          positions: [a1 / 10, a2 / 10],
          maxLoads: [max1, max2],
          cogRangeX: null,
          cogRangeY: null,
        },
      },
    ],
    items,
    packingMode: 'auto',
    maxVehicles: 30,
    allowOverweight: false,
    maxStackItems: 0,
    maxStackDensity: 0,
    enforceAxle: false,
    groupRouting: 'none',
    budgetMs,
    seed,
  };
}

/** Largest axle load over its maximum across the plan's trucks (1 = at a maximum). */
function worstAxle(plan: Plan): number {
  let worst = 0;
  for (const v of plan.vehicles)
    for (const a of v.axle_loads ?? []) if (a.max > 0) worst = Math.max(worst, a.load / a.max);
  return worst;
}

/** Runs the benchmark (see the top of this file). */
export async function benchAlonso(o: {
  instances: string;
  day: string;
  budget: string;
  threads?: string;
}): Promise<void> {
  const solver = new Solver(o.threads ? { threads: Number(o.threads) } : {});
  const day = Number(o.day),
    budget = Number(o.budget);
  console.log(
    `Alonso 2019 day ${day}, budget ${budget} ms, ${solver.threads} threads; axle = largest axle load / its max`,
  );
  console.log('inst  units  lb | free: trucks placed  axle  ms   | enforce_axle: trucks placed  axle  ms');
  const totals = { free: 0, strict: 0, lb: 0, over: 0, count: 0 };
  try {
    for (const n of parseRange(o.instances)) {
      const base = alonsoModel(readFileSync(`${ALONSO_DIR}/inst3d${n}.csv`, 'utf8'), day, budget, n);
      const units = base.items.reduce((s, it) => s + it.quantity, 0);
      if (units === 0) continue;
      const v = base.vehicles[0]!;
      const volume = base.items.reduce((s, it) => s + it.quantity * it.length * it.width * it.height, 0);
      const weight = base.items.reduce((s, it) => s + it.quantity * it.weight, 0);
      const lb = Math.max(
        Math.ceil(volume / (v.length * v.width * v.height) - 1e-9),
        Math.ceil(weight / v.maxWeight - 1e-9),
      );
      const cells: string[] = [];
      for (const enforceAxle of [false, true]) {
        const model = { ...base, enforceAxle };
        const out = await solver.solve(model);
        if (out.status !== 'solved') throw new Error(`inst3d${n}: ${out.status}`);
        const violations = verifyPlan(model, out.plan);
        if (violations.length > 0)
          throw new Error(`inst3d${n}: plan fails verification ${JSON.stringify(violations.slice(0, 2))}`);
        const placed = out.plan.vehicles.reduce((s, x) => s + x.items_placed, 0);
        const worst = worstAxle(out.plan);
        cells.push(
          `${String(out.plan.vehicles.length).padStart(6)} ${`${placed}/${units}`.padStart(9)} ${worst.toFixed(3)} ${String(out.computeMs).padStart(5)}`,
        );
        if (enforceAxle) totals.strict += out.plan.vehicles.length;
        else {
          totals.free += out.plan.vehicles.length;
          if (worst > 1 + 1e-9) totals.over++;
        }
      }
      totals.lb += lb;
      totals.count++;
      console.log(
        `${String(n).padStart(4)} ${String(units).padStart(6)} ${String(lb).padStart(3)} | ${cells[0]} | ${cells[1]}`,
      );
    }
    console.log(
      `${totals.count} instances: trucks ${totals.free} free, ${totals.strict} with enforce_axle, lower bound ${totals.lb}; ` +
        `${totals.over} free plans overload an axle`,
    );
  } finally {
    await solver.close();
  }
}
