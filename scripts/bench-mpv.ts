/**
 * `npm run bench -- mpv [DIR] [--classes 1-8] [--sizes 50,100] [--instances 1-10] [--budget ms]
 * [--threads n] [--json]`: the Martello–Pisinger–Vigo 3D bin-packing instances
 * (`../shared/benchmarks/mpv3dbpp` beside the repository, or DIR; format in its SOURCE.md): every
 * bin a copy of one vehicle in auto mode, boxes not rotated (as in MPV 2000), full support (which
 * MPV does not ask for, so the published bin counts are not a fair bound). Prints per instance
 * the bins used against the volume lower bound ⌈Σ box volume / bin volume⌉ and per class and
 * size the totals. Every plan is verified; an instance without a plan prints why.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ItemModel, PackModel } from '../domain/pack/plan.js';
import { Solver } from '../solver/solve.js';
import { verifyPlan } from '../solver/verify/verify.js';
import { parseRange } from './bench-br.js';

/** The shared instances beside the repository (MPV_DIR overrides it). */
const MPV_DIR = process.env['MPV_DIR'] ?? fileURLToPath(new URL('../../shared/benchmarks/mpv3dbpp', import.meta.url));

/** Options of the `mpv` bench (strings as commander gives them). */
export interface MpvBenchOptions {
  classes: string;
  sizes: string;
  instances: string;
  budget: string;
  threads?: string;
  json?: boolean;
}

/** One instance file as a model: bins W × H × D (x × y × z), boxes w h d, identical boxes merged. */
export function mpvModel(text: string, budgetMs: number, seed: number): { model: PackModel; lowerBound: number } {
  const t = text
    .split(/\s+/)
    .filter((s) => s.length > 0)
    .map(Number);
  if (t.length < 4 || t.some((v) => !Number.isFinite(v)))
    throw new Error('MPV format: expected numbers "W H D n w h d …"');
  const [W, H, D, n] = t as [number, number, number, number];
  if (t.length < 4 + 3 * n)
    throw new Error(`MPV format: ${n} boxes announced, ${Math.floor((t.length - 4) / 3)} given`);
  const kinds = new Map<string, ItemModel>();
  let volume = 0;
  for (let i = 0; i < n; i++) {
    const [w, h, d] = [t[4 + 3 * i]!, t[5 + 3 * i]!, t[6 + 3 * i]!];
    volume += w * h * d;
    const key = `${w}x${h}x${d}`;
    const it = kinds.get(key);
    if (it) it.quantity++;
    else {
      kinds.set(key, {
        id: `b${kinds.size + 1}`,
        label: key,
        shape: 'box',
        length: w,
        width: d,
        height: h,
        weight: 1,
        quantity: 1,
        stackable: true,
        maxStackWeight: 0,
        nestingHeight: 0,
        orientations: ['lwh'],
        priority: 0,
        hazardous: false,
        group: null,
        groupOrder: Number.MAX_SAFE_INTEGER,
        color: null,
      });
    }
  }
  const model: PackModel = {
    vehicles: [
      {
        id: 'bin',
        name: 'bin',
        type: 'container',
        length: W,
        width: D,
        height: H,
        maxWeight: 1e9,
        quantity: 1,
        blockedAreas: [],
        floorLoadCapacity: 0,
        axles: null,
        auxDeck: null,
      },
    ],
    items: [...kinds.values()],
    packingMode: 'auto',
    maxVehicles: n,
    allowOverweight: false,
    maxStackItems: 0,
    maxStackDensity: 0,
    enforceAxle: false,
    groupRouting: 'none',
    budgetMs,
    seed,
  };
  return { model, lowerBound: Math.max(1, Math.ceil(volume / (W * H * D) - 1e-9)) };
}

/** Runs the bench (prints as it goes). */
export async function benchMpv(dir: string | undefined, o: MpvBenchOptions): Promise<void> {
  const root = resolve(dir ?? MPV_DIR);
  const base = existsSync(join(root, 'instances')) ? join(root, 'instances') : root;
  const budget = Number(o.budget);
  if (!(budget >= 1)) throw new RangeError(`--budget must be at least 1 ms, got "${o.budget}"`);
  const classes = parseRange(o.classes),
    sizes = o.sizes.split(',').map(Number),
    ks = parseRange(o.instances);
  const solver = new Solver(o.threads ? { threads: Number(o.threads) } : {});
  if (!o.json)
    console.log(
      `MPV 3D bin packing, no rotation, full support, budget ${budget} ms, ${solver.threads} threads (${base})`,
    );
  let allBins = 0,
    allLb = 0;
  try {
    await solver.warm();
    for (const c of classes) {
      for (const size of sizes) {
        let bins = 0,
          lb = 0,
          count = 0,
          unverified = 0;
        for (const k of ks) {
          const file = join(base, `${c}_${size}`, String(k));
          if (!existsSync(file)) continue;
          const { model, lowerBound } = mpvModel(readFileSync(file, 'utf8'), budget, k);
          const out = await solver.solve(model);
          count++;
          lb += lowerBound;
          if (out.status !== 'solved') {
            const why = out.status === 'failed' ? out.error.message : out.status;
            if (!o.json) console.log(`${c}_${size}/${k}: no plan: ${why}`);
            unverified++;
            continue;
          }
          const used = out.plan.vehicles.length,
            unplaced = out.plan.unplaced.length;
          const verified = verifyPlan(model, out.plan).length === 0;
          if (!verified || unplaced > 0) unverified++;
          bins += used;
          if (o.json)
            console.log(
              JSON.stringify({
                class: c,
                size,
                instance: k,
                bins: used,
                lowerBound,
                unplaced,
                ms: out.computeMs,
                verified,
              }),
            );
        }
        if (count === 0) continue;
        allBins += bins;
        allLb += lb;
        if (!o.json)
          console.log(
            `class ${c} n=${String(size).padEnd(4)} ${count} instances  bins ${bins}  lower bound ${lb}  (+${bins - lb})  problems ${unverified}`,
          );
      }
    }
    if (!o.json) console.log(`total bins ${allBins}  lower bound ${allLb}  (+${allBins - allLb})`);
  } finally {
    await solver.close();
  }
}
