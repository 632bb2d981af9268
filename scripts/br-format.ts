/**
 * The Bischoff & Ratcliff / OR-Library container-loading format (benchmarks/br/SOURCE.md:
 * thpack1–9.txt and BR0–BR15.txt share it) and the pack model the benchmarks build from it: one
 * container, boxes of weight 1 kg, the orientation flags enforced, full support, no weight limit.
 */
import type { ItemModel, Orientation, PackModel } from '../domain/pack/plan.js';
import { ALL_ORIENTATIONS } from '../domain/pack/plan.js';

/** One BR problem: container (cm) and box types. */
export interface BrProblem {
  number: number;
  container: { length: number; width: number; height: number };
  boxes: { dims: [number, number, number]; vertical: [boolean, boolean, boolean]; quantity: number }[];
}

/** Parses a file of the format. Throws Error naming the token position on a malformed file. */
export function parseBr(text: string): BrProblem[] {
  const tok = text
    .split(/\s+/)
    .filter((t) => t.length > 0)
    .map(Number);
  let p = 0;
  const next = (): number => {
    const v = tok[p++];
    if (v === undefined || Number.isNaN(v)) throw new Error(`BR format: bad or missing number at token ${p}`);
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
      const l = next(),
        fl = next(),
        w = next(),
        fw = next(),
        h = next(),
        fh = next(),
        q = next();
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

/** The pack model of one problem with a budget of `budgetMs` (seed: the problem number). */
export function brModel(pr: BrProblem, budgetMs: number): PackModel {
  const items: ItemModel[] = pr.boxes.map((b, i) => ({
    id: `t${i + 1}`,
    label: `type ${i + 1}`,
    shape: 'box',
    length: b.dims[0],
    width: b.dims[1],
    height: b.dims[2],
    weight: 1,
    quantity: b.quantity,
    stackable: true,
    maxStackWeight: 0,
    nestingHeight: 0,
    orientations: orientationsFor(b.vertical),
    priority: 0,
    hazardous: false,
    group: null,
    groupOrder: Number.MAX_SAFE_INTEGER,
    color: null,
  }));
  return {
    vehicles: [
      {
        id: 'c',
        name: 'BR container',
        type: 'container',
        ...pr.container,
        maxWeight: 1e9,
        quantity: 1,
        blockedAreas: [],
        floorLoadCapacity: 0,
        axles: null,
        auxDeck: null,
      },
    ],
    items,
    packingMode: 'fleet_only',
    maxVehicles: 1,
    allowOverweight: false,
    maxStackItems: 0,
    maxStackDensity: 0,
    enforceAxle: false,
    groupRouting: 'none',
    budgetMs,
    seed: pr.number,
  };
}

/** Share of the container's volume the problem's boxes fill if all are loaded, 0–1. */
export function cargoShare(pr: BrProblem): number {
  const c = pr.container;
  return (
    pr.boxes.reduce((s, b) => s + b.quantity * b.dims[0] * b.dims[1] * b.dims[2], 0) / (c.length * c.width * c.height)
  );
}
