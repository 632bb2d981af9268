/**
 * Round cargo: which item shapes are round, and when a round unit stands upright.
 * Pure, with no Node imports: the verifier, the search, the PDF and the browser viewer share it.
 */
import type { Orientation } from './plan.js';

/** Item shapes given by radius + height (spec Item.shape): drawn and packed round. */
export const ROUND_SHAPES: ReadonlySet<string> = new Set(['cylinder', 'drum']);

/** True for a cylinder or drum. */
export function isRoundShape(shape: string): boolean {
  return ROUND_SHAPES.has(shape);
}

/**
 * True when a unit in orientation `o` keeps its defined height vertical (`lwh`, `wlh`): the
 * orientation's letters name the defined sides placed along x, z and y.
 */
export function heightVertical(o: Orientation): boolean {
  return o[2] === 'h';
}
