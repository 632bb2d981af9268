/**
 * A vehicle's load as the crew loads it, unit by unit, under the safe stacking rule
 * max_slenderness (docs/solver.md, "Safe stacks"): the blocks as unit boxes (unitsOf), their
 * loading steps with the pinned units first (pinnedFirst), and the stacks that would still stand
 * free and too slender at their step taken down (takeDownSlender), in a finished vehicle load
 * (takeDownInLoad, so the units go to the next vehicle or are unplaced with their reason) and
 * in the plan (plan-assembly.ts). Lengths in cm, weights in kg.
 */
import type { Orientation } from '../../domain/pack/plan.js';
import { blockExtent, type Block } from './block.js';
import type { JobContext } from './job-context.js';
import { loadingSteps, restsOn, underDeck, type Box } from './loading-steps.js';
import { RULE_MAX_SLENDERNESS, type LoadState, type VehicleLoad } from './load-state.js';
import { StackStability } from './stack-stability.js';

/** One unit of a block as a box, with where it came from. */
export interface Unit extends Box {
  item: number;
  orientation: Orientation;
  /** A pinned unit's instance (pinned.ts), undefined for the units the search placed. */
  instance?: number;
  /** A pinned unit's position among its vehicle copy's pinned units, in request order. */
  order?: number;
  /** Index of its block in the load, and its column in the block (a circle's index for a staggered block). */
  block: number;
  column: number;
  /** Its layer in the block's column, 0 at the bottom. */
  layer: number;
}

/** The cargo width (cm) and Options.max_slenderness of a stable loading order. */
export interface Stable {
  width: number;
  ratio: number;
}

/**
 * The units of `blocks` (simple blocks: general and capped ones are applied as their parts),
 * each with its loading rank `rank(item)` (group rank with a group routing, else 0).
 */
export function unitsOf(blocks: readonly Block[], rank: (item: number) => number): Unit[] {
  const units: Unit[] = [];
  blocks.forEach((b, block) => {
    const common = { item: b.item, orientation: b.orientation, rank: rank(b.item), kind: b.item, block };
    const size = { dx: b.size.l, dy: b.size.h, dz: b.size.w };
    if (b.pinned) {
      units.push({
        ...common,
        instance: b.pinned.instance,
        order: b.pinned.order,
        x: b.x,
        y: b.y,
        z: b.z,
        ...size,
        column: 0,
        layer: 0,
        ...(b.pinned.nest > 0 ? { nest: b.pinned.nest } : {}),
      });
      return;
    }
    // Units of one column nest into the one below (pitch < height).
    const nest = b.size.pitch < b.size.h ? { nest: b.size.h - b.size.pitch } : {};
    if (b.stagger) {
      // A staggered block: each circle's bounding square (2r × 2r), layer over layer.
      const r = b.stagger.radius;
      b.stagger.centres.forEach((c, column) => {
        for (let iy = 0; iy < b.ny; iy++) {
          const at = { x: b.x + c.x - r, y: b.y + iy * b.size.pitch, z: b.z + c.z - r };
          units.push({ ...common, ...at, ...size, column, layer: iy, ...(iy > 0 ? nest : {}) });
        }
      });
      return;
    }
    for (let ix = 0; ix < b.nx; ix++) {
      for (let iy = 0; iy < b.ny; iy++) {
        for (let iz = 0; iz < b.nz; iz++) {
          const at = { x: b.x + ix * b.size.l, y: b.y + iy * b.size.pitch, z: b.z + iz * b.size.w };
          units.push({ ...common, ...at, ...size, column: ix * b.nz + iz, layer: iy, ...(iy > 0 ? nest : {}) });
        }
      }
    }
  });
  return units;
}

/**
 * Loading steps (1-based, per unit) with the pinned units first: the pinned units in request
 * order when that order loads every unit after what it rests on (and, with a second deck, the
 * floor below a deck section before the units on it: loading-steps.ts), as a re-plan from a step
 * sends them, else in the order loadingSteps gives them among themselves; then the others in
 * the order loadingSteps gives them among all units, stable where it can with `stable`. Both
 * orders put every unit after what it rests on; pinned units never rest on others (admission
 * checks them alone), so the joined order does too.
 */
export function pinnedFirst(units: readonly Unit[], deckHeight: number | null, stable: Stable | undefined): number[] {
  const all = loadingSteps(units, deckHeight, stable);
  const pinned = units
    .map((_, i) => i)
    .filter((i) => units[i]!.instance !== undefined)
    .sort((a, b) => units[a]!.order! - units[b]!.order!);
  if (pinned.length === 0) return all;
  const boxes = pinned.map((i) => units[i]!);
  const before = restsOn(boxes, deckHeight);
  underDeck(boxes, deckHeight).forEach((l, k) => before[k]!.push(...l));
  const requestOrderHolds = before.every((l, k) => l.every((j) => j < k));
  const own = requestOrderHolds ? boxes.map((_, k) => k + 1) : loadingSteps(boxes, deckHeight);
  const steps = new Array<number>(units.length);
  pinned.forEach((ui, k) => (steps[ui] = own[k]!));
  const rest = units
    .map((_, i) => i)
    .filter((i) => units[i]!.instance === undefined)
    .sort((a, b) => all[a]! - all[b]!);
  rest.forEach((ui, k) => (steps[ui] = pinned.length + k + 1));
  return steps;
}

/**
 * Takes down the stacks that stand free and too slender at their step (stack-stability.ts):
 * the first searched unit whose loading breaks the rule, with every unit resting on it directly
 * or not, leaves; the steps are made again, and so on until no step breaks it. Pinned units stay
 * (admission checked them alone, and they load first). Returns the units kept with their steps,
 * and the units taken down.
 */
export function takeDownSlender(
  units: readonly Unit[],
  deckHeight: number | null,
  stable: Stable,
): { kept: Unit[]; steps: number[]; gone: Unit[] } {
  let kept = units.slice();
  const gone: Unit[] = [];
  for (;;) {
    const steps = pinnedFirst(kept, deckHeight, stable);
    const below = restsOn(kept, deckHeight);
    const stability = new StackStability(kept, below, stable.width, stable.ratio);
    const order = kept.map((_, i) => i).sort((a, b) => steps[a]! - steps[b]!);
    const bad = order.find((i) => {
      const breaks = kept[i]!.instance === undefined && stability.unstable(i);
      if (!breaks) stability.load(i);
      return breaks;
    });
    if (bad === undefined) return { kept, steps, gone };
    const above: number[][] = kept.map(() => []);
    below.forEach((l, i) => l.forEach((j) => above[j]!.push(i)));
    const out = new Set<number>([bad]);
    const todo = [bad];
    while (todo.length > 0) {
      for (const k of above[todo.pop()!]!) {
        if (out.has(k)) continue;
        out.add(k);
        todo.push(k);
      }
    }
    for (const k of out) gone.push(kept[k]!);
    kept = kept.filter((_, k) => !out.has(k));
  }
}

/**
 * Takes the slender free stacks out of a finished vehicle load (takeDownSlender on its units):
 * each block that loses units keeps the rest as one block per column (a column keeps its lower
 * layers: what is taken down of it is a unit and everything above), the load's weight, volume,
 * moments and length range follow, the units go back to `state.remaining` and their items get
 * RULE_MAX_SLENDERNESS. Returns the number of units taken out (0: the load is unchanged).
 */
export function takeDownInLoad(ctx: JobContext, load: VehicleLoad, state: LoadState, stable: Stable): number {
  const rank = (item: number): number => (ctx.model.groupRouting === 'none' ? 0 : ctx.groupRank[item]!);
  const units = unitsOf(load.blocks, rank);
  const { gone } = takeDownSlender(units, load.vehicle.auxDeck?.height ?? null, stable);
  if (gone.length === 0) return 0;
  // Per block and column, the lowest layer taken down.
  const cut = new Map<number, Map<number, number>>();
  for (const u of gone) {
    const columns = cut.get(u.block) ?? new Map<number, number>();
    columns.set(u.column, Math.min(columns.get(u.column) ?? Infinity, u.layer));
    cut.set(u.block, columns);
    const kind = ctx.kinds[u.item]!;
    state.remaining[u.item] = (state.remaining[u.item] ?? 0) + 1;
    state.ruleBlocked[u.item]! |= RULE_MAX_SLENDERNESS;
    load.weight -= kind.weight;
    load.volume -= kind.volume;
    load.momentX -= kind.weight * (u.x + u.dx / 2);
    load.momentZ -= kind.weight * (u.z + u.dz / 2);
  }
  const blocks: Block[] = [];
  load.blocks.forEach((b, i) => {
    const columns = cut.get(i);
    if (!columns) {
      blocks.push(b);
      return;
    }
    const layers = (column: number): number => Math.min(b.ny, columns.get(column) ?? Infinity);
    if (b.stagger) {
      b.stagger.centres.forEach((c, column) => {
        const ny = layers(column);
        if (ny > 0) blocks.push({ ...b, ny, stagger: { ...b.stagger!, centres: [c] } });
      });
      return;
    }
    for (let ix = 0; ix < b.nx; ix++) {
      for (let iz = 0; iz < b.nz; iz++) {
        const ny = layers(ix * b.nz + iz);
        if (ny > 0) blocks.push({ ...b, nx: 1, nz: 1, ny, x: b.x + ix * b.size.l, z: b.z + iz * b.size.w });
      }
    }
  });
  load.blocks = blocks;
  load.minX = Math.min(Infinity, ...blocks.map((b) => b.x));
  load.maxX = Math.max(-Infinity, ...blocks.map((b) => b.x + blockExtent(b).dx));
  return gone.length;
}
