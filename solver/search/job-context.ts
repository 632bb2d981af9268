/**
 * The model prepared for the constructions: distinct orientations per item, loading tiers and
 * per-job constants, computed once per search.
 */
import type { Orientation, PackModel } from '../../domain/pack/plan.js';
import { distinctOrientations, type OrientedSize } from './orientation.js';
import { pinnedCounts, pinnedSeeds, type PinnedSeed } from './pinned.js';
import { safeStacking, type SafeStacking } from './safe-stacking.js';

/** One item definition as the packer sees it. */
export interface ItemKind {
  /** Index into `model.items`. */
  index: number;
  weight: number;
  stackable: boolean;
  volume: number;
  orientations: { orientation: Orientation; size: OrientedSize }[];
}

/** Prepared job: kinds and the tiers in which they are loaded. */
export interface JobContext {
  model: PackModel;
  kinds: ItemKind[];
  /**
   * Item indices grouped by (priority descending, groupOrder ascending): each tier is loaded
   * into a vehicle before the next one, so higher priority units are kept when space runs out
   * and lower group orders go deeper.
   */
  tiers: number[][];
  /**
   * Per item index: the rank of its group in loading order (groups sorted by order, then name;
   * items without a group last). Tiers never mix groups when group_routing is not `none`.
   */
  groupRank: number[];
  /**
   * Beam searches offer general blocks (general-block.ts): on jobs of many kinds with few units
   * each (at most SPARSE_UNITS_PER_KIND units per kind on average; BR10–15-like loads gain
   * 0.5–3.5 points) and on jobs of at most FEW_KINDS kinds (BR1-like loads: +0.44 points at 1 s,
   * +0.29 at 10 s). Between the two (BR2–9-like loads) they cost fill: −0.01 to −1.0 points at
   * 3 s, for the time their scans take.
   */
  generalBlocks: boolean;
  /** The seeds of the vehicle copies with pinned units (pinned.ts), vehicles in model order. */
  pinned: PinnedSeed[];
  /** Pinned units per item index (loaded from the start, not searched for). */
  pinnedCount: number[];
  /** The safe stacking rules as far as they can bind on this job (safeStacking). */
  safe: SafeStacking;
}

/** Most units per kind, on average, of a job of many kinds whose beam searches use general blocks. */
export const SPARSE_UNITS_PER_KIND = 3;

/** Most kinds (item entries) of a job whose beam searches use general blocks whatever its units. */
export const FEW_KINDS = 3;

/** Rank of each item's group: distinct (order, name) pairs sorted, items without a group last. */
export function groupRanks(model: PackModel): number[] {
  const key = (i: number): [number, string] => [model.items[i]!.groupOrder, model.items[i]!.group ?? ''];
  const keys = [...new Map(model.items.map((_, i) => [key(i).join('\u0000'), key(i)])).values()].sort(
    (a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0),
  );
  const rank = new Map(keys.map((k, r) => [k.join('\u0000'), r]));
  return model.items.map((_, i) => rank.get(key(i).join('\u0000'))!);
}

/** Prepares `model` for the search. */
export function jobContext(model: PackModel): JobContext {
  const kinds = model.items.map((it, index) => ({
    index,
    weight: it.weight,
    stackable: it.stackable,
    volume: it.length * it.width * it.height,
    orientations: distinctOrientations(it),
  }));
  const groupRank = groupRanks(model);
  // With a group routing the groups load strictly in order, priority deciding within a group;
  // without one, priority comes first and group order only breaks ties.
  const routed = model.groupRouting !== 'none';
  const order = model.items
    .map((_, i) => i)
    .sort((a, b) => {
      const A = model.items[a]!,
        B = model.items[b]!;
      const byGroup = groupRank[a]! - groupRank[b]!,
        byPriority = B.priority - A.priority;
      return (routed ? byGroup || byPriority : byPriority || byGroup) || a - b;
    });
  const tiers: number[][] = [];
  let prev: { p: number; g: number } | null = null;
  for (const i of order) {
    const it = model.items[i]!;
    if (!prev || prev.p !== it.priority || prev.g !== groupRank[i]) {
      tiers.push([]);
      prev = { p: it.priority, g: groupRank[i]! };
    }
    tiers[tiers.length - 1]!.push(i);
  }
  const units = model.items.reduce((n, it) => n + it.quantity, 0);
  const safe = safeStacking(model);
  // General blocks join kinds without asking what stands on what: not where a safe stacking rule binds.
  const generalBlocks =
    model.items.length > 0 &&
    (units <= SPARSE_UNITS_PER_KIND * model.items.length || model.items.length <= FEW_KINDS) &&
    !safe.pallets &&
    safe.heavyOnLight === 0;
  return {
    model,
    kinds,
    tiers,
    groupRank,
    generalBlocks,
    pinned: pinnedSeeds(model, safe),
    pinnedCount: pinnedCounts(model),
    safe,
  };
}
