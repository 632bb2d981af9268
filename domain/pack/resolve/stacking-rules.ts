/**
 * The safe stacking rules of a request (our extension; docs/solver.md, "Safe stacks"):
 * Options.pallets_on_cartons, heavy_on_light and max_slenderness, with their defaults when left
 * out. A ratio other than 0 (off) must be at least 1: below it, identical units could not stand
 * on one another (heavy_on_light) and a stack could not be as tall as its base (max_slenderness).
 */
import type { ErrorDetail } from '../diagnostics.js';
import { STACKING_DEFAULTS, type StackingRules } from '../plan.js';
import { nonNegative, type Fields } from './coercion.js';

/**
 * The rules `options` asks for (each field left out takes its default); `out_of_range` details
 * for a ratio between 0 and 1. Ill-typed values count as left out (the JSON Schema reports them).
 */
export function readStackingRules(options: Fields, details: ErrorDetail[]): StackingRules {
  const ratio = (field: 'heavy_on_light' | 'max_slenderness', fallback: number): number => {
    const v = nonNegative(options[field]);
    if (v === undefined) return fallback;
    if (v > 0 && v < 1) {
      details.push({
        path: `options.${field}`,
        code: 'out_of_range',
        message: `is ${v}; give 0 to turn the rule off, or a ratio of at least 1`,
      });
      return fallback;
    }
    return v;
  };
  return {
    palletsOnCartons:
      typeof options.pallets_on_cartons === 'boolean' ? options.pallets_on_cartons : STACKING_DEFAULTS.palletsOnCartons,
    heavyOnLight: ratio('heavy_on_light', STACKING_DEFAULTS.heavyOnLight),
    maxSlenderness: ratio('max_slenderness', STACKING_DEFAULTS.maxSlenderness),
  };
}
