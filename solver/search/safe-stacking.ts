/**
 * The safe stacking rules in the search (docs/solver.md, "Safe stacks"): which of them can bind
 * on a job, and what a block's top offers the units that may stand on it. pallets_on_cartons and
 * heavy_on_light are kept by the spaces (maximal-space.ts Space.palletBase, bearerDensity);
 * max_slenderness by the plan's loading order and its stability pass (plan-assembly.ts).
 */
import { STACKING_OFF, type ItemModel, type PackModel } from '../../domain/pack/plan.js';

/**
 * The safe stacking rules the search heeds (PackModel.stacking; docs/solver.md, "Safe stacks"),
 * each only where it can bind, so that spaces on a job it cannot touch stay as they were (no
 * extra space kept apart for it; BR's boxes, all of one weight and none a pallet, keep every
 * figure): `pallets` when pallets must stay off other shapes and the job has pallets and
 * stackable units of another shape; `heavyOnLight` the ratio when some unit weighs more than the
 * ratio times a stackable unit, else 0.
 */
export interface SafeStacking {
  pallets: boolean;
  heavyOnLight: number;
}

/** SafeStacking of `model` (see there). */
export function safeStacking(model: PackModel): SafeStacking {
  const rules = model.stacking ?? STACKING_OFF;
  const pallets =
    !rules.palletsOnCartons &&
    model.items.some((it) => it.shape === 'pallet') &&
    model.items.some((it) => it.shape !== 'pallet' && it.stackable);
  const lightest = Math.min(...model.items.filter((it) => it.stackable).map((it) => it.weight));
  const heaviest = Math.max(0, ...model.items.map((it) => it.weight));
  const heavyOnLight = rules.heavyOnLight > 0 && heaviest > rules.heavyOnLight * lightest ? rules.heavyOnLight : 0;
  return { pallets, heavyOnLight };
}

/**
 * What the top of a unit of `item` (placed footprint l × w, cm) offers under the rules `safe`:
 * `palletTop` (a pallet may stand on it), `densityAbove` (its weight per cm² of top face,
 * kg/cm²) and `weightAbove` (its weight, kg); both Infinity when heavy_on_light cannot bind.
 */
export function topOf(
  safe: SafeStacking,
  item: Pick<ItemModel, 'shape' | 'weight'>,
  l: number,
  w: number,
): { palletTop: boolean; densityAbove: number; weightAbove: number } {
  const binds = safe.heavyOnLight > 0;
  return {
    palletTop: !safe.pallets || item.shape === 'pallet',
    densityAbove: binds ? item.weight / (l * w) : Infinity,
    weightAbove: binds ? item.weight : Infinity,
  };
}

/**
 * 0 when a unit of `item` (footprint `area` cm²) may stand on a surface with `palletBase`,
 * `bearerDensity` and `bearerWeight` (maximal-space.ts Space) under `safe`; else the
 * LoadState.ruleBlocked bit of the rule that keeps it off (RULE_PALLET_BASE 1,
 * RULE_HEAVY_ON_LIGHT 2). Fully supported, the unit rests on units that together weigh at least
 * bearerDensity · area, and at least bearerWeight (it rests on one of them at least).
 */
export function ruleKeepsOff(
  safe: SafeStacking,
  item: Pick<ItemModel, 'shape' | 'weight'>,
  area: number,
  surface: { palletBase: boolean; bearerDensity: number; bearerWeight: number },
): number {
  if (safe.pallets && item.shape === 'pallet' && !surface.palletBase) return 1;
  const carried = Math.max(surface.bearerDensity * area, surface.bearerWeight);
  if (safe.heavyOnLight > 0 && item.weight > safe.heavyOnLight * carried * (1 + 1e-9) + 1e-9) return 2;
  return 0;
}
