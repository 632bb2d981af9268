/**
 * Benchmarks the solver. `br`: Bischoff & Ratcliff BR1–BR7 (benchmarks/br/thpackN.txt, one
 * container 587×233×220 cm, orientation flags enforced, full support, every plan verified by
 * the Solver); prints per class the mean volume fill %, the mean compute ms and the EB-AFIT
 * anchor mean over the same instances.
 *
 *   npm run bench -- br [--classes 1-7] [--instances N] [--budget ms] [--threads n]
 */
import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import type { ItemModel, Orientation, PackModel } from '../solver/model/types.js';
import { ALL_ORIENTATIONS } from '../solver/model/types.js';
import { Solver } from '../solver/solve.js';

const BR_DIR = process.env['BR_DIR'] ?? '/work/shared/benchmarks/br';

/** One BR problem: container and box types. */
interface BrProblem {
  number: number;
  container: { length: number; width: number; height: number };
  boxes: { dims: [number, number, number]; vertical: [boolean, boolean, boolean]; quantity: number }[];
}

/** Parses a thpackN.txt file (format in benchmarks/br/SOURCE.md). */
function parseThpack(text: string): BrProblem[] {
  const tok = text.split(/\s+/).filter((t) => t.length > 0).map(Number);
  let p = 0;
  const next = (): number => {
    const v = tok[p++];
    if (v === undefined || Number.isNaN(v)) throw new Error(`thpack: bad token at ${p}`);
    return v;
  };
  const count = next();
  const out: BrProblem[] = [];
  for (let k = 0; k < count; k++) {
    const number = next();
    next(); // generator seed
    const container = { length: next(), width: next(), height: next() };
    const n = next();
    const boxes: BrProblem['boxes'] = [];
    for (let i = 0; i < n; i++) {
      next(); // type id
      const l = next(), fl = next(), w = next(), fw = next(), h = next(), fh = next(), q = next();
      boxes.push({ dims: [l, w, h], vertical: [fl === 1, fw === 1, fh === 1], quantity: q });
    }
    out.push({ number, container, boxes });
  }
  return out;
}

/** A flag allows a dimension to stand vertical: the orientations whose third letter (y) names it. */
function orientationsFor(vertical: [boolean, boolean, boolean]): Orientation[] {
  const idx = { l: 0, w: 1, h: 2 } as const;
  return ALL_ORIENTATIONS.filter((o) => vertical[idx[o[2] as 'l' | 'w' | 'h']]);
}

function brModel(pr: BrProblem, budgetMs: number): PackModel {
  const items: ItemModel[] = pr.boxes.map((b, i) => ({
    id: `t${i + 1}`, label: `type ${i + 1}`, shape: 'box',
    length: b.dims[0], width: b.dims[1], height: b.dims[2], weight: 1, quantity: b.quantity,
    stackable: true, maxStackWeight: 0, orientations: orientationsFor(b.vertical), priority: 0,
    hazardous: false, group: null, groupOrder: Number.MAX_SAFE_INTEGER, color: null,
  }));
  return {
    vehicles: [{
      id: 'c', name: 'BR container', type: 'container', ...pr.container,
      maxWeight: 1e9, quantity: 1, blockedAreas: [],
    }],
    items, packingMode: 'fleet_only', maxVehicles: 1, allowOverweight: false, maxStackItems: 0,
    budgetMs, seed: pr.number,
  };
}

function ebafit(): Map<string, number> {
  const rows = readFileSync(`${BR_DIR}/ebafit_results_thpack1-7.csv`, 'utf8').trim().split(/\r?\n/).slice(1);
  const m = new Map<string, number>();
  for (const r of rows) {
    const c = r.split(',');
    m.set(`${c[0]}-${c[1]}`, Number(c[4]));
  }
  return m;
}

function parseRange(s: string): number[] {
  const [a, b] = s.split('-').map(Number);
  const lo = a ?? 1, hi = b ?? lo;
  return Array.from({ length: hi - lo + 1 }, (_, i) => lo + i);
}

const mean = (xs: number[]): number => xs.reduce((s, x) => s + x, 0) / Math.max(1, xs.length);

async function benchBr(o: { classes: string; instances: string; budget: string; threads?: string; first: string }): Promise<void> {
  const classes = parseRange(o.classes);
  const count = Number(o.instances), budget = Number(o.budget), first = Number(o.first);
  const solver = new Solver(o.threads ? { threads: Number(o.threads) } : {});
  const anchor = ebafit();
  const all: number[] = [], allMs: number[] = [], allAnchor: number[] = [];
  console.log(`BR full support, budget ${budget} ms, ${solver.threads} threads, instances ${first}..${first + count - 1}`);
  console.log('class  fill%   ms      EB-AFIT%');
  try {
    for (const k of classes) {
      const problems = parseThpack(readFileSync(`${BR_DIR}/thpack${k}.txt`, 'utf8')).slice(first - 1, first - 1 + count);
      const fills: number[] = [], ms: number[] = [], anchors: number[] = [];
      for (const pr of problems) {
        const model = brModel(pr, budget);
        const out = await solver.solve(model);
        if (out.status !== 'solved') throw new Error(`BR${k}#${pr.number}: ${out.status} ${'error' in out ? out.error : ''}`);
        const v = out.plan.vehicles[0];
        fills.push(100 * (v?.volume_utilization ?? 0));
        ms.push(out.computeMs);
        const a = anchor.get(`BR${k}-${pr.number}`);
        if (a !== undefined) anchors.push(a);
      }
      all.push(...fills); allMs.push(...ms); allAnchor.push(...anchors);
      console.log(`BR${k}    ${mean(fills).toFixed(2)}  ${mean(ms).toFixed(0).padStart(6)}  ${mean(anchors).toFixed(2)}`);
    }
    console.log(`mean   ${mean(all).toFixed(2)}  ${mean(allMs).toFixed(0).padStart(6)}  ${mean(allAnchor).toFixed(2)}`);
  } finally {
    await solver.close();
  }
}

const program = new Command('bench');
program.command('br')
  .description('BR1–BR7 container loading with full support')
  .option('--classes <range>', 'classes, e.g. 1-7', '1-7')
  .option('--instances <n>', 'instances per class', '10')
  .option('--first <n>', 'first instance number', '1')
  .option('--budget <ms>', 'budget per instance, ms', '5000')
  .option('--threads <n>', 'worker threads (default: available cores)')
  .action(benchBr);
await program.parseAsync(process.argv);
