/**
 * Loads one vehicle by block building over empty maximal spaces: repeatedly take the best
 * ranked space in which a block of the current tier fits, put the chosen block at the space's
 * bottom corner (front, nearer side wall), and update the spaces. Full support holds by the
 * space invariant (maximal-space.ts): every unit stands on the floor or with 100 % of its base
 * on top faces of units whose top is exactly at its y. With `strategy.pilot` > 0 each choice
 * looks ahead: the best few blocks are each followed by a greedy completion and the block whose
 * completion loads the most volume is taken (pilot method).
 */
import type { VehicleModel } from '../../domain/pack/plan.js';
import {
  blockCentre,
  blockExtent,
  blocksFor,
  blockUnits,
  cappedColumns,
  layersIn,
  MAX_CAP_HEIGHTS,
  rankBlocks,
  rankVolume,
  type Block,
  type CapKind,
} from './block.js';
import type { JobContext } from './job-context.js';
import { bears, capacityAbove, layersByLoad } from './load-bearing.js';
import { ruleKeepsOff, topOf } from './safe-stacking.js';
import { takeDownInLoad } from './stable-loading.js';
import { axlesWithinMovable, enforcedAxleLines, type AxleLine } from './axle-load.js';
import { balanceVehicle } from './axle-balance.js';
import { footprint, keepsClearance, type HazardFootprint } from './hazard.js';
import { EPS, occupy, removeContained, volume as spaceVolume, type MinSize, type Space } from './maximal-space.js';
import type { Random } from './prng.js';
import type { Strategy } from './strategy.js';
import type { LoadState, VehicleLoad } from './load-state.js';
import { reachFor, type Reach } from './reach.js';
import { bearingArea, uprightRound } from './round-arrangement.js';
import { roundBlocksFor } from './round-block.js';
import { spent, type WorkBudget } from './work-budget.js';
import { generalBlocksFor, generalParts, generalShapesFor } from './general-block.js';
import { cargoSpaces } from './cargo-space.js';
import type { PinnedSeed } from './pinned.js';

/** A vehicle being loaded: its spaces, load and the tier in progress. */
interface Packing {
  spaces: Space[];
  min: MinSize;
  /** Lowest placed height of the stackable units left, cm (Infinity when none). */
  stackH: number;
  load: VehicleLoad;
  state: LoadState;
  tier: number;
  /** Axles with a maximum the loading must respect (enforce_axle), else empty. */
  axles: AxleLine[];
  /** Rank of the group being loaded (job-context.ts groupRank), −1 before the first. */
  group: number;
  /** Footprints of the hazardous blocks loaded (hazard.ts). */
  hazards: HazardFootprint[];
  /** kg standing on the second deck (VehicleModel.auxDeck). */
  deckWeight: number;
  /** The load starts with pinned units (pinned.ts): it is never moved as a whole. */
  pinned: boolean;
  /**
   * With a group routing, the highest group rank among the pinned units (−1: none): groups
   * before it are not loaded into this vehicle (they would have to go in front of or under it).
   */
  lowestGroup: number;
  /**
   * Reachable lengths (reach.ts) of the units left when the vehicle's loading began, for the
   * `fitness` block score (not updated as kinds run out: cheaper, and close enough).
   */
  reach: Reach;
}

function minSize(ctx: JobContext, remaining: number[]): MinSize {
  const m = { x: Infinity, y: Infinity, z: Infinity };
  for (const k of ctx.kinds) {
    if ((remaining[k.index] ?? 0) < 1) continue;
    for (const { size } of k.orientations) {
      m.x = Math.min(m.x, size.l);
      m.y = Math.min(m.y, size.h);
      m.z = Math.min(m.z, size.w);
    }
  }
  return m;
}

/** Most kind orientations tried as column caps (bounds the work for jobs with many kinds). */
const MAX_CAP_KINDS = 12;
/** Work allowed per choice for capped variants: columns × cap kinds × column heights tried. */
const CAP_WORK = 8_000;
/** Most general blocks offered per space (the largest that fit). */
const MAX_GENERAL = 48;

function stackableHeight(ctx: JobContext, remaining: number[]): number {
  let h = Infinity;
  for (const k of ctx.kinds) {
    if (!k.stackable || (remaining[k.index] ?? 0) < 1) continue;
    for (const { size } of k.orientations) h = Math.min(h, size.h);
  }
  return h;
}

/** Rankings already made of a space list (lists are never mutated, and beam nodes share them). */
const rankedSpaces = new WeakMap<Space[], { rank: Strategy['spaceRank']; width: number; ranked: Space[] }>();

function rankSpaces(spaces: Space[], strategy: Strategy, width: number): Space[] {
  const hit = rankedSpaces.get(spaces);
  if (hit && hit.rank === strategy.spaceRank && hit.width === width) return hit.ranked;
  const ranked = rankSpacesNow(spaces, strategy, width);
  rankedSpaces.set(spaces, { rank: strategy.spaceRank, width, ranked });
  return ranked;
}

function rankSpacesNow(spaces: Space[], strategy: Strategy, width: number): Space[] {
  // Per space: its key (x0, y0, distance to the nearer side wall; for `corner` sorted
  // ascending) and its volume, in one typed array (no array per space).
  const n = spaces.length;
  const keys = new Float64Array(4 * n);
  for (let i = 0; i < n; i++) {
    const s = spaces[i]!;
    let a = s.x0,
      b = s.y0,
      c = Math.min(s.z0, width - s.z1);
    if (strategy.spaceRank !== 'front') {
      // The three in ascending order (a sorting network of three swaps).
      let t: number;
      if (a > b) {
        t = a;
        a = b;
        b = t;
      }
      if (b > c) {
        t = b;
        b = c;
        c = t;
      }
      if (a > b) {
        t = a;
        a = b;
        b = t;
      }
    }
    keys[4 * i] = a;
    keys[4 * i + 1] = b;
    keys[4 * i + 2] = c;
    keys[4 * i + 3] = spaceVolume(s);
  }
  const order = Array.from({ length: n }, (_, i) => i);
  order.sort((i, j) => {
    for (let k = 0; k < 3; k++) {
      const d = keys[4 * i + k]! - keys[4 * j + k]!;
      if (Math.abs(d) > EPS) return d;
    }
    return keys[4 * j + 3]! - keys[4 * i + 3]!;
  });
  return order.map((i) => spaces[i]!);
}

function clone(p: Packing): Packing {
  return {
    spaces: p.spaces,
    min: p.min,
    reach: p.reach,
    stackH: p.stackH,
    tier: p.tier,
    axles: p.axles,
    group: p.group,
    hazards: p.hazards,
    deckWeight: p.deckWeight,
    pinned: p.pinned,
    lowestGroup: p.lowestGroup,
    load: { ...p.load, blocks: p.load.blocks.slice() },
    state: {
      remaining: p.state.remaining.slice(),
      weightBlocked: p.state.weightBlocked.slice(),
      loadBlocked: p.state.loadBlocked.slice(),
      axleBlocked: p.state.axleBlocked.slice(),
      ruleBlocked: p.state.ruleBlocked.slice(),
    },
  };
}

/**
 * Loads `vehicle` from `state` (mutated: remaining counts drop, weight flags set) following
 * `strategy`; stops when `budget` is spent and reports `cut`. With `seed` (a copy with pinned
 * units, pinned.ts) the loading starts from the pinned units, already placed and counted (not
 * in `state.remaining`); they stay first in the load's blocks, unmoved.
 */
export function loadVehicle(
  ctx: JobContext,
  vehicle: VehicleModel,
  state: LoadState,
  strategy: Strategy,
  rng: Random,
  budget: WorkBudget,
  seed?: PinnedSeed,
): VehicleLoad {
  const load: VehicleLoad = {
    vehicle,
    blocks: seed ? seed.blocks.slice() : [],
    weight: seed?.weight ?? 0,
    volume: seed?.volume ?? 0,
    momentX: seed?.momentX ?? 0,
    momentZ: seed?.momentZ ?? 0,
    minX: seed?.minX ?? Infinity,
    maxX: seed?.maxX ?? -Infinity,
    cut: false,
  };
  const min = minSize(ctx, state.remaining);
  if (!Number.isFinite(min.x)) return load;
  const root: Packing = {
    spaces: seed ? seed.spaces : cargoSpaces(ctx.model, vehicle, min),
    min,
    stackH: stackableHeight(ctx, state.remaining),
    load,
    state,
    tier: 0,
    axles: enforcedAxleLines(ctx.model.enforceAxle, vehicle),
    group: -1,
    hazards: seed?.hazards ?? [],
    deckWeight: seed?.deckWeight ?? 0,
    pinned: (seed?.blocks.length ?? 0) > 0,
    lowestGroup:
      seed && ctx.model.groupRouting !== 'none' ? Math.max(-1, ...seed.blocks.map((b) => ctx.groupRank[b.item]!)) : -1,
    reach: reachFor(ctx, state.remaining, Math.max(vehicle.length, vehicle.width, vehicle.height)),
  };
  const beamed = strategy.beam > 0 ? beamLoad(ctx, root, strategy, budget) : null;
  const p = beamed?.best ?? root;
  while (!beamed?.complete) {
    if (spent(budget)) {
      p.load.cut = true;
      break;
    }
    // GRASP picks among a fraction of all candidates, so it needs them all ranked.
    const need = strategy.pilot > 1 ? strategy.pilot : strategy.rcl > 0 ? Infinity : 1;
    const options = candidates(ctx, p, strategy, need);
    if (!options) break;
    let pick: Block;
    const k = Math.min(options.blocks.length, strategy.pilot);
    if (k > 1) {
      pick = options.blocks[0]!;
      let bestVol = -1;
      for (let i = 0; i < k; i++) {
        const trial = clone(p);
        apply(ctx, trial, options.blocks[i]!, options.space, budget);
        greedyFinish(ctx, trial, strategy, budget);
        if (trial.load.volume > bestVol + EPS) {
          bestVol = trial.load.volume;
          pick = options.blocks[i]!;
        }
      }
    } else {
      const r = strategy.rcl > 0 ? Math.max(1, Math.ceil(strategy.rcl * options.blocks.length)) : 1;
      pick = options.blocks[Math.min(options.blocks.length - 1, Math.floor(rng() * r))]!;
    }
    apply(ctx, p, pick, options.space, budget);
  }
  // Copied into the caller's arrays, not swapped for the node's: a Construction (fleet-load.ts)
  // holds these arrays, and the unplaced units' reasons are read from them.
  const copyInto = (to: number[] | boolean[], from: readonly (number | boolean)[]): void => {
    if (to !== from) to.splice(0, to.length, ...(from as never[]));
  };
  copyInto(state.remaining, p.state.remaining);
  copyInto(state.weightBlocked, p.state.weightBlocked);
  copyInto(state.loadBlocked, p.state.loadBlocked);
  copyInto(state.axleBlocked, p.state.axleBlocked);
  copyInto(state.ruleBlocked, p.state.ruleBlocked);
  const pinned = seed ? new Set(seed.blocks) : undefined;
  const balance = ctx.model.enforceAxle && vehicle.axles !== null;
  if (balance) balanceVehicle(ctx, p.load, state, pinned);
  // Safe stacks: no stack standing free and too slender at its step (stable-loading.ts). Taking
  // units out moves the centre of gravity, and balancing moves the load off the walls that may
  // hold a stack, so the two take turns until the stacks stand (each turn takes units out).
  const ratio = ctx.model.stacking?.maxSlenderness ?? 0;
  if (ratio > 0) {
    const stable = { width: vehicle.width, ratio };
    while (takeDownInLoad(ctx, p.load, state, stable) > 0 && balance) balanceVehicle(ctx, p.load, state, pinned);
  }
  return p.load;
}

/**
 * What tells two beam nodes apart: the units left, the occupied extents of the blocks (corner
 * and far corner, in any order of placement) and the completion value; nodes with equal keys
 * hold the same blocks at the same places, reached in a different order.
 */
function stateKey(p: Packing, value: number): string {
  const corners = p.load.blocks
    .map((b) => {
      const e = blockExtent(b);
      return `${b.x},${b.y},${b.z},${b.x + e.dx},${b.y + e.dy},${b.z + e.dz}`;
    })
    .sort();
  return `${Math.round(value)}|${p.state.remaining.join(',')}|${corners.join(';')}`;
}

/**
 * The children of a beam node: the first `k` of `ranked` (best first), taking the best block of
 * each item first, so they try different items before variants of the same one. (Drawing some
 * children at random from further down the ranking was tried and filled less: BR1–2 at width
 * 256, 92.75 % against 93.01 %.)
 */
function diverseBlocks(ranked: readonly Block[], k: number): Block[] {
  const out: Block[] = [];
  const items = new Set<number>();
  for (const b of ranked) {
    if (out.length >= k) return out;
    if (items.has(b.item)) continue;
    items.add(b.item);
    out.push(b);
  }
  for (const b of ranked) {
    if (out.length >= k) break;
    if (!out.includes(b)) out.push(b);
  }
  return out;
}

/** A beam node: a partial loading, the volume its greedy completion loads and that completion's blocks. */
interface BeamNode {
  p: Packing;
  /** cm³ the greedy completion of `p` loads (−1 for the root, not valued). */
  value: number;
  /** The blocks the greedy completion of `p` chose, from `at` on (those after `p`). */
  path: readonly Block[];
  at: number;
}

/** True when `a` and `b` are the same block at the same place (candidates of equal states). */
function sameBlock(a: Block, b: Block): boolean {
  if (a === b) return true;
  if (
    a.item !== b.item ||
    a.orientation !== b.orientation ||
    a.x !== b.x ||
    a.y !== b.y ||
    a.z !== b.z ||
    a.nx !== b.nx ||
    a.ny !== b.ny ||
    a.nz !== b.nz ||
    a.size.l !== b.size.l ||
    a.size.w !== b.size.w ||
    a.size.h !== b.size.h ||
    a.general !== b.general ||
    a.mirrored !== b.mirrored ||
    a.stagger !== b.stagger
  )
    return false;
  if (!a.cap || !b.cap) return a.cap === b.cap;
  return sameBlock(a.cap, b.cap);
}

/**
 * Beam search over block choices (after Araya & Riff's beam search with greedy evaluation): each
 * node of the beam is a partial loading; its children put one of the best `strategy.branch`
 * blocks into the node's chosen space, and each child is valued by the volume its greedy
 * completion loads. The child that puts the block the node's own greedy completion began with
 * has that completion's value already: it is not completed again. The `strategy.beam` best
 * children (distinct values) form the next beam, until no node has a block left or the budget is
 * spent. Returns the best loading seen and whether it is complete (a greedy completion the budget
 * did not end, or a node with nothing left to load); `best` null when not a single child could
 * be valued.
 */
function beamLoad(
  ctx: JobContext,
  root: Packing,
  strategy: Strategy,
  budget: WorkBudget,
): { best: Packing | null; complete: boolean } {
  let best: Packing | null = null,
    complete = false;
  let beam: BeamNode[] = [{ p: root, value: -1, path: [], at: 0 }];
  while (beam.length > 0 && !spent(budget)) {
    const children: (BeamNode & { key: string })[] = [];
    for (const node of beam) {
      const options = candidates(ctx, node.p, strategy, Infinity);
      if (!options) {
        if (!best || node.p.load.volume > best.load.volume + EPS) {
          best = node.p;
          complete = true;
        }
        continue;
      }
      const next = node.path[node.at];
      for (const block of diverseBlocks(options.blocks, strategy.branch)) {
        if (spent(budget)) break;
        const child = clone(node.p);
        apply(ctx, child, block, options.space, budget);
        if (next && sameBlock(next, block)) {
          // The node's own greedy completion goes on from here: its value, nothing to redo.
          children.push({
            p: child,
            value: node.value,
            path: node.path,
            at: node.at + 1,
            key: stateKey(child, node.value),
          });
          continue;
        }
        const trial = clone(child);
        const path: Block[] = [];
        const done = greedyFinish(ctx, trial, strategy, budget, path);
        if (!best || trial.load.volume > best.load.volume + EPS) {
          best = trial;
          complete = done;
        }
        children.push({ p: child, value: trial.load.volume, path, at: 0, key: stateKey(child, trial.load.volume) });
      }
      if (spent(budget)) break;
    }
    if (spent(budget)) break;
    // Stable sort: ties keep the order of the parents and their blocks (deterministic).
    children.sort((a, b) => b.value - a.value);
    const seen = new Set<string>();
    beam = [];
    for (const c of children) {
      if (beam.length >= strategy.beam) break;
      if (seen.has(c.key)) continue;
      seen.add(c.key);
      beam.push(c);
    }
  }
  return { best, complete };
}

/**
 * Completes `p` greedily (best block each time, no randomness); false when the budget ended it.
 * The blocks chosen are appended to `path` when given.
 */
function greedyFinish(ctx: JobContext, p: Packing, strategy: Strategy, budget: WorkBudget, path?: Block[]): boolean {
  for (;;) {
    if (spent(budget)) return false;
    const options = candidates(ctx, p, strategy, 1);
    if (!options) return true;
    path?.push(options.blocks[0]!);
    apply(ctx, p, options.blocks[0]!, options.space, budget);
  }
}

/**
 * Puts `block` (at the bottom of `space`) into `p` and updates its spaces; then its cap, if any,
 * on the block's top face. Counts one unit of work.
 */
function apply(ctx: JobContext, p: Packing, block: Block, space: Space, budget: WorkBudget): void {
  budget.used++;
  if (block.general) {
    // A general block: parts on the space's floor take the space; a part higher up stands on the
    // flat top of the parts under it (general-block.ts), which bears without limit.
    for (const part of generalParts(block)) {
      if (part.y <= space.y0 + EPS) {
        applyOne(ctx, p, part, space);
        continue;
      }
      const e = blockExtent(part);
      applyOne(ctx, p, part, {
        x0: part.x,
        x1: part.x + e.dx,
        z0: part.z,
        z1: part.z + e.dz,
        y0: part.y,
        y1: space.y1,
        level: space.level + 1,
        capacity: Infinity,
        // General blocks are not built where a safe stacking rule binds (job-context.ts).
        palletBase: true,
        bearerDensity: Infinity,
        bearerWeight: Infinity,
      });
    }
    return;
  }
  if (block.cap) {
    const { cap, ...column } = block;
    applyOne(ctx, p, column, space);
    const e = blockExtent(column);
    applyOne(ctx, p, cap, {
      x0: column.x,
      x1: column.x + e.dx,
      z0: column.z,
      z1: column.z + e.dz,
      y0: column.y + e.dy,
      y1: space.y1,
      level: space.level + column.ny,
      capacity: columnCapacity(ctx, column, space),
      ...baseOn(ctx, column),
    });
    return;
  }
  applyOne(ctx, p, block, space);
}

/** Capacity left on the top of `block`'s columns (kg/cm²) when it stands in `space`. */
function columnCapacity(ctx: JobContext, block: Block, space: Space): number {
  const it = ctx.model.items[block.item]!;
  return capacityAbove(it, bearingArea(it, block.orientation, block.size.l, block.size.w), block.ny, space.capacity);
}

function applyOne(ctx: JobContext, p: Packing, block: Block, space: Space): void {
  const { model } = ctx;
  const n = blockUnits(block);
  const kind = ctx.kinds[block.item]!;
  const vehicle = p.load.vehicle;
  p.state.remaining[block.item] = (p.state.remaining[block.item] ?? 0) - n;
  p.load.weight += kind.weight * n;
  p.load.volume += kind.volume * n;
  const e = blockExtent(block);
  const centre = blockCentre(block);
  p.load.momentX += kind.weight * n * centre.x;
  p.load.momentZ += kind.weight * n * centre.z;
  p.load.minX = Math.min(p.load.minX, block.x);
  p.load.maxX = Math.max(p.load.maxX, block.x + e.dx);
  p.load.blocks.push(block);
  if (ctx.model.items[block.item]!.hazardous) p.hazards = [...p.hazards, footprint(block)];
  const deck = vehicle.auxDeck;
  const onDeck = deck !== null && block.y >= deck.height - EPS;
  if (onDeck) p.deckWeight += kind.weight * n;
  const topLevel = space.level + block.ny;
  // A top that can take no more weight stays a space (of capacity 0): units that fit there but
  // weigh something are then known to be unplaced for load, not for room.
  const above = columnCapacity(ctx, block, space);
  // Nothing rests on upright round units: a box on drums is not fully supported, and a drum
  // column is built whole in its block (round-block.ts).
  const capped =
    !kind.stackable ||
    (model.maxStackItems > 0 && topLevel >= model.maxStackItems) ||
    uprightRound(model.items[block.item]!, block.orientation);
  if ((p.state.remaining[block.item] ?? 0) < 1) {
    // The minima change only when the kind that ran out held one of them.
    const m = p.min;
    if (kind.orientations.some(({ size }) => size.l <= m.x + EPS || size.h <= m.y + EPS || size.w <= m.z + EPS))
      p.min = minSize(ctx, p.state.remaining);
    if (kind.stackable && kind.orientations.some(({ size }) => size.h <= p.stackH + EPS))
      p.stackH = stackableHeight(ctx, p.state.remaining);
  }
  if (!Number.isFinite(p.min.x)) {
    p.spaces = [];
    return;
  }
  p.spaces = occupy(
    p.spaces,
    {
      x0: block.x,
      y0: block.y,
      z0: block.z,
      x1: block.x + e.dx,
      z1: block.z + e.dz,
      // Nothing above a capped unit up to its ceiling: the deck over the lower floor, else the roof.
      y1: capped ? (deck && !onDeck ? deck.height : vehicle.height) : block.y + e.dy,
      topLevel,
      supportsAbove: !capped,
      capacityAbove: above,
      ...topOf(ctx.safe, model.items[block.item]!, block.size.l, block.size.w),
    },
    p.min,
  );
}

/** The surface the top of `block`'s columns offers under the safe stacking rules (safe-stacking.ts). */
function baseOn(ctx: JobContext, block: Block): { palletBase: boolean; bearerDensity: number; bearerWeight: number } {
  const top = topOf(ctx.safe, ctx.model.items[block.item]!, block.size.l, block.size.w);
  return { palletBase: top.palletTop, bearerDensity: top.densityAbove, bearerWeight: top.weightAbove };
}

/**
 * The blocks (best first; the best `need` only) for the first ranked space where a kind of the
 * current tier fits, moving `p.tier` on when a tier has nothing left that fits; null when the
 * vehicle is done.
 */
function candidates(
  ctx: JobContext,
  p: Packing,
  strategy: Strategy,
  need: number,
): { space: Space; blocks: Block[] } | null {
  const { model } = ctx;
  const vehicle = p.load.vehicle;
  while (p.tier < ctx.tiers.length) {
    const kinds = ctx.tiers[p.tier]!.filter((i) => (p.state.remaining[i] ?? 0) > 0);
    if (kinds.length > 0 && ctx.groupRank[kinds[0]!]! < p.lowestGroup) {
      // Pinned units of a later group are here: an earlier group would go in front of or under them.
      p.tier++;
      continue;
    }
    if (kinds.length > 0 && model.groupRouting !== 'none' && ctx.groupRank[kinds[0]!] !== p.group) {
      enterGroup(ctx, p, ctx.groupRank[kinds[0]!]!);
    }
    if (kinds.length > 0 && p.spaces.length > 0) {
      // In the last tier with units left, a space where nothing fits now never will again.
      let last = true;
      for (let t = p.tier + 1; t < ctx.tiers.length && last; t++)
        for (const i of ctx.tiers[t]!) if ((p.state.remaining[i] ?? 0) >= 1) last = false;
      const dead = new Set<Space>();
      // Kinds nothing may rest on, largest units first: candidates to cap columns.
      // Hazardous units stay on the floor: never a cap on a column.
      const caps = (i: number): boolean => !ctx.kinds[i]!.stackable && !model.items[i]!.hazardous;
      const capKinds = !kinds.some(caps)
        ? []
        : kinds
            .filter(caps)
            .flatMap((i) => ctx.kinds[i]!.orientations.map((o) => ({ i, ...o })))
            .sort((a, b) => b.size.l * b.size.w * b.size.h - a.size.l * a.size.w * a.size.h || a.i - b.i)
            .slice(0, MAX_CAP_KINDS);
      // General blocks of the tier's kinds (general-block.ts), when the strategy uses them on a job
      // they suit (JobContext.generalBlocks: many kinds with few units each, or few kinds).
      const general =
        strategy.general && ctx.generalBlocks && p.axles.length === 0 && model.maxStackItems === 0
          ? generalShapesFor(ctx, vehicle.length, vehicle.height, vehicle.width)
          : [];
      // Units left of the tier's kinds (general blocks take no units of other tiers).
      // With one tier, those are all the units left.
      let tierLeft: readonly number[] = [];
      if (general.length > 0 && ctx.tiers.length === 1) tierLeft = p.state.remaining;
      else if (general.length > 0) {
        const own = new Array<number>(p.state.remaining.length).fill(0);
        for (const i of kinds) own[i] = p.state.remaining[i] ?? 0;
        tierLeft = own;
      }
      // Only the best block wanted (greedy steps): a kind and orientation whose largest block
      // would still rank below a block already found is not built (exact: no block of it could
      // win; general blocks come after and may still beat it). Not for `fit` (margins first),
      // capped columns (built from the best columns) or axles.
      const prune = need === 1 && capKinds.length === 0 && p.axles.length === 0 && strategy.blockScore !== 'fit';
      const safe = ctx.safe.pallets || ctx.safe.heavyOnLight > 0;
      for (const space of rankSpaces(p.spaces, strategy, vehicle.width)) {
        const blocks: Block[] = [];
        const sx = space.x1 - space.x0 + EPS,
          sy = space.y1 - space.y0 + EPS,
          sz = space.z1 - space.z0 + EPS;
        // A unit nothing may rest on, standing with room above it where a stackable unit
        // left could stand, wastes that room: such blocks only when nothing else fits here.
        const wasteful = (b: Block): boolean => {
          const top = b.cap ?? b;
          return !ctx.kinds[top.item]!.stackable && space.y1 - top.y - blockExtent(top).dy >= p.stackH - EPS;
        };
        // The ranking volume (block.ts rankVolume) of the best block found here that is not wasteful.
        let bar = -Infinity;
        const kgRoom = weightRoom(p, space, model.allowOverweight);
        const stackRoom = model.maxStackItems > 0 ? model.maxStackItems - space.level : Infinity;
        for (const i of kinds) {
          const kind = ctx.kinds[i]!;
          const byWeight = kind.weight <= 0 ? Infinity : Math.floor(kgRoom / kind.weight + 1e-9);
          const item = model.items[i]!;
          // Hazardous units are kept low: on the floor, one layer.
          if (item.hazardous && space.y0 > EPS) continue;
          // All the units of the kind the payload allows would still rank below the best block
          // found: skipped whole (only where no weight or load flag would be set for it).
          if (
            bar > -Infinity &&
            item.shape === 'box' &&
            byWeight >= 1 &&
            space.capacity === Infinity &&
            item.maxStackWeight === 0 &&
            kind.orientations.length > 0
          ) {
            const unit = kind.orientations[0]!.size;
            if (unit.l * unit.w * unit.h * Math.min(p.state.remaining[i] ?? 0, byWeight) < bar) continue;
          }
          const layers = kind.stackable && !item.hazardous ? stackRoom : Math.min(1, stackRoom);
          for (const { orientation, size } of kind.orientations) {
            if (size.l > sx || size.h > sy || size.w > sz) continue;
            if (safe) {
              // The safe stacking rules: what the space stands on may keep this kind off it.
              const keptOff = ruleKeepsOff(ctx.safe, item, bearingArea(item, orientation, size.l, size.w), space);
              if (keptOff !== 0) {
                if (layers >= 1) p.state.ruleBlocked[i]! |= keptOff;
                continue;
              }
            }
            // Without a pressure or stack weight limit, load bearing allows any number of layers.
            const byLoad =
              space.capacity === Infinity && item.maxStackWeight === 0
                ? Infinity
                : layersByLoad(item, bearingArea(item, orientation, size.l, size.w), space.capacity);
            if (byLoad < 1) {
              if (!p.state.loadBlocked[i] && layers >= 1) p.state.loadBlocked[i] = true;
              continue;
            }
            const limits = { available: p.state.remaining[i] ?? 0, byWeight, layers: Math.min(layers, byLoad) };
            if (byWeight < 1) {
              if (
                !p.state.weightBlocked[i] &&
                blocksFor(i, orientation, size, space, { ...limits, byWeight: 1 }, vehicle.width).length > 0
              ) {
                p.state.weightBlocked[i] = true;
              }
              continue;
            }
            // Upright round units: the square grid or a staggered arrangement, whichever holds more.
            const build = item.shape !== 'box' && uprightRound(item, orientation) ? roundBlocksFor : blocksFor;
            if (prune && build === blocksFor && bar > -Infinity) {
              // The most units any block of this kind and orientation holds here (blocksFor).
              const most =
                Math.floor(sx / size.l) *
                Math.floor(sz / size.w) *
                Math.min(layersIn(space.y1 - space.y0, size), limits.layers);
              const largest = size.l * size.w * size.h * Math.min(limits.available, byWeight, most);
              if (largest < bar) continue;
            }
            const allowed =
              p.axles.length === 0
                ? build(i, orientation, size, space, limits, vehicle.width, strategy.wallSlices)
                : axleAllowed(
                    ctx,
                    p,
                    i,
                    (available) =>
                      build(i, orientation, size, space, { ...limits, available }, vehicle.width, strategy.wallSlices),
                    limits.available,
                  );
            for (const b of allowed) {
              if (item.hazardous && !keepsClearance(b, p.hazards)) continue;
              blocks.push(b);
              if (prune && !wasteful(b)) bar = Math.max(bar, rankVolume(b, strategy.blockScore, space, p.reach));
            }
          }
        }
        // General blocks only where the search's other bookkeeping (axles, stack levels, load
        // bearing) has nothing to say: their parts need room, units and payload alone.
        if (general.length > 0 && space.capacity === Infinity && blocks.length > 0) {
          // Greedy steps: shapes too small to beat the best block found are not scanned (exact).
          const least = prune ? bar : -Infinity;
          for (const b of generalBlocksFor(general, space, tierLeft, kgRoom, vehicle.width, MAX_GENERAL, least))
            blocks.push(b);
        }
        if (blocks.length > 0) {
          if (dead.size > 0) p.spaces = p.spaces.filter((s) => !dead.has(s));
          if (capKinds.length === 0)
            return { space, blocks: rankBlocks(blocks, strategy.blockScore, space, wasteful, need, p.reach) };
          // The best columns get capped variants: units nothing may rest on, put on their tops.
          const heights = Math.min(MAX_CAP_HEIGHTS, new Set(capKinds.map((c) => c.size.h)).size);
          const capColumns = Math.max(8, Math.floor(CAP_WORK / (capKinds.length * (1 + heights))));
          const ranked =
            blocks.length <= capColumns
              ? blocks
              : rankBlocks(blocks, strategy.blockScore, space, wasteful, Math.max(need, capColumns), p.reach);
          const weightLeft = weightRoom(p, space, model.allowOverweight);
          const caps: CapKind[] = capKinds.map((c) => ({
            item: c.i,
            orientation: c.orientation,
            size: c.size,
            available: p.state.remaining[c.i] ?? 0,
            weight: ctx.kinds[c.i]!.weight,
          }));
          const layersLeft = model.maxStackItems > 0 ? model.maxStackItems - space.level : Infinity;
          const capped: Block[] = [];
          let columns = 0;
          for (const col of ranked) {
            const kind = ctx.kinds[col.item]!;
            if (!kind.stackable || uprightRound(model.items[col.item]!, col.orientation)) continue;
            if (++columns > capColumns) break;
            for (const b of cappedColumns(
              col,
              space,
              caps,
              p.state.remaining[col.item] ?? 0,
              kind.weight,
              weightLeft,
              layersLeft,
              vehicle.width,
            )) {
              // The cap's units press on the column's top, which may be able to take less.
              const cap = b.cap!;
              const capArea = bearingArea(model.items[cap.item]!, cap.orientation, cap.size.l, cap.size.w);
              if (!bears(ctx.kinds[cap.item]!.weight, capArea, columnCapacity(ctx, b, space))) continue;
              if (safe && ruleKeepsOff(ctx.safe, model.items[cap.item]!, capArea, baseOn(ctx, b)) !== 0) continue;
              if (p.axles.length > 0 && !axleFits(ctx, p, b)) continue;
              capped.push(b);
            }
          }
          return {
            space,
            blocks: rankBlocks(ranked.concat(capped), strategy.blockScore, space, wasteful, need, p.reach),
          };
        }
        if (last) dead.add(space);
      }
      if (dead.size > 0) p.spaces = p.spaces.filter((s) => !dead.has(s));
    }
    p.tier++;
  }
  return null;
}

/** kg and kg·cm (about x = 0) a block adds, its cap included (which lies within its length). */
function blockMoment(ctx: JobContext, b: Block): { w: number; m: number } {
  const w = ctx.kinds[b.item]!.weight * blockUnits(b);
  const own = { w, m: w * blockCentre(b).x };
  if (!b.cap) return own;
  const cap = blockMoment(ctx, b.cap);
  return { w: own.w + cap.w, m: own.m + cap.m };
}

/**
 * True when, with `b` added, some move of the whole load along the free length (which
 * axle-balance.ts may make once the vehicle is loaded) keeps every enforced axle within its
 * maximum. Loads of vehicles with blocked areas or pinned units are never moved.
 */
function axleFits(ctx: JobContext, p: Packing, b: Block): boolean {
  const { w, m } = blockMoment(ctx, b);
  const v = p.load.vehicle;
  const minX = Math.min(p.load.minX, b.x),
    maxX = Math.max(p.load.maxX, b.x + blockExtent(b).dx);
  const [lo, hi] = v.blockedAreas.length > 0 || p.pinned ? [0, 0] : [-minX, v.length - maxX];
  return axlesWithinMovable(p.axles, p.load.weight + w, p.load.momentX + m, lo, hi);
}

/**
 * The blocks `make(available)` gives that keep the axles within their maxima; when every block
 * of `available` units would overload an axle, smaller blocks (half as many units, and so on)
 * are tried. Marks the item axle-blocked when none is allowed.
 */
function axleAllowed(
  ctx: JobContext,
  p: Packing,
  item: number,
  make: (available: number) => Block[],
  available: number,
): Block[] {
  let fits = make(available);
  if (p.axles.length === 0 || fits.length === 0) return fits;
  let allowed = fits.filter((b) => axleFits(ctx, p, b));
  for (let q = Math.floor(available / 2); allowed.length === 0 && q >= 1; q = Math.floor(q / 2)) {
    fits = make(q);
    allowed = fits.filter((b) => axleFits(ctx, p, b));
  }
  if (allowed.length === 0) p.state.axleBlocked[item] = true;
  return allowed;
}

/**
 * Starts loading the group of rank `group` (Options.group_routing): with `wall` the group gets
 * the length behind everything loaded so far (the spaces are cut at that wall); with `no_stack`
 * nothing of it may rest on earlier groups (spaces above the floor are dropped); with `routing`
 * and `no_stack` it stays out of the lanes in front of earlier groups' units, so a crew loading
 * group by group from the door can reach every unit. A group loaded later can only come on top
 * of or beside earlier ones.
 */
function enterGroup(ctx: JobContext, p: Packing, group: number): void {
  if (p.pinned) {
    enterGroupAroundPinned(ctx, p, group);
    return;
  }
  const first = p.group < 0;
  p.group = group;
  if (first || p.load.blocks.length === 0) return;
  if (ctx.model.groupRouting === 'wall') {
    const wall = p.load.maxX;
    p.spaces = removeContained(
      p.spaces.filter((s) => s.x1 > wall + EPS).map((s) => (s.x0 < wall ? { ...s, x0: wall } : s)),
      p.min,
    );
    return;
  }
  if (ctx.model.groupRouting === 'no_stack') {
    const deck = p.load.vehicle.auxDeck;
    p.spaces = p.spaces.filter((s) => s.y0 <= EPS || (deck !== null && Math.abs(s.y0 - deck.height) <= EPS));
  }
  // Loaded group by group from the door, a unit of this group must not lie deeper than a unit
  // already loaded in its lane: the room between the front wall and each loaded block, in the
  // block's height and width band, is closed to this group and the later ones.
  for (const b of p.load.blocks) {
    if (b.x <= EPS) continue;
    const e = blockExtent(b);
    p.spaces = occupy(
      p.spaces,
      {
        x0: 0,
        x1: b.x,
        y0: b.y,
        y1: b.y + e.dy,
        z0: b.z,
        z1: b.z + e.dz,
        topLevel: 0,
        supportsAbove: false,
        capacityAbove: 0,
        palletTop: false,
        densityAbove: 0,
        weightAbove: 0,
      },
      p.min,
    );
  }
}

/**
 * enterGroup for a load that began with pinned units, which may be of this group or of earlier
 * ones (groups before the pinned ones are never entered: Packing.lowestGroup): the same rules,
 * measured on the blocks of earlier groups only. With `wall` the group starts behind them; with
 * `no_stack` nothing may rest on a block of another group (the room above each is closed); with
 * `routing` and `no_stack` the lanes in front of earlier groups' blocks are closed.
 */
function enterGroupAroundPinned(ctx: JobContext, p: Packing, group: number): void {
  p.group = group;
  const { model } = ctx;
  const vehicle = p.load.vehicle;
  const deck = vehicle.auxDeck;
  const earlier = p.load.blocks.filter((b) => ctx.groupRank[b.item]! < group);
  const closed = (o: { x0: number; x1: number; y0: number; y1: number; z0: number; z1: number }): void => {
    p.spaces = occupy(
      p.spaces,
      { ...o, topLevel: 0, supportsAbove: false, capacityAbove: 0, palletTop: false, densityAbove: 0, weightAbove: 0 },
      p.min,
    );
  };
  if (model.groupRouting === 'wall') {
    if (earlier.length === 0) return;
    const wall = Math.max(...earlier.map((b) => b.x + blockExtent(b).dx));
    p.spaces = removeContained(
      p.spaces.filter((s) => s.x1 > wall + EPS).map((s) => (s.x0 < wall ? { ...s, x0: wall } : s)),
      p.min,
    );
    return;
  }
  if (model.groupRouting === 'no_stack') {
    for (const b of p.load.blocks) {
      if (ctx.groupRank[b.item] === group) continue;
      const e = blockExtent(b);
      const top = b.y + e.dy;
      const ceiling = deck && top <= deck.height + EPS ? deck.height : vehicle.height;
      if (top < ceiling - EPS) closed({ x0: b.x, x1: b.x + e.dx, y0: top, y1: ceiling, z0: b.z, z1: b.z + e.dz });
    }
  }
  for (const b of earlier) {
    if (b.x <= EPS) continue;
    const e = blockExtent(b);
    closed({ x0: 0, x1: b.x, y0: b.y, y1: b.y + e.dy, z0: b.z, z1: b.z + e.dz });
  }
}

/**
 * kg that may still be loaded in `space`: the payload left (Infinity with allow_overweight) and,
 * on the second deck, what the deck still carries (a structural limit, kept even when
 * overweight is allowed).
 */
function weightRoom(p: Packing, space: Space, allowOverweight: boolean): number {
  const payload = allowOverweight ? Infinity : p.load.vehicle.maxWeight - p.load.weight;
  const deck = p.load.vehicle.auxDeck;
  return deck && space.y0 >= deck.height - EPS ? Math.min(payload, deck.maxWeight - p.deckWeight) : payload;
}
