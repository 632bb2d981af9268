/**
 * The model prepared for the constructions: distinct orientations per item, loading tiers and
 * per-job constants, computed once per search.
 */
import type { Orientation, PackModel } from '../../domain/pack/plan.js';
import { distinctOrientations, type OrientedSize } from './orientation.js';

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
  const order = model.items.map((_, i) => i).sort((a, b) => {
    const A = model.items[a]!, B = model.items[b]!;
    return B.priority - A.priority || A.groupOrder - B.groupOrder || a - b;
  });
  const tiers: number[][] = [];
  let prev: { p: number; g: number } | null = null;
  for (const i of order) {
    const it = model.items[i]!;
    if (!prev || prev.p !== it.priority || prev.g !== it.groupOrder) {
      tiers.push([]);
      prev = { p: it.priority, g: it.groupOrder };
    }
    tiers[tiers.length - 1]!.push(i);
  }
  return { model, kinds, tiers };
}
