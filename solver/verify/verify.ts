// STUB: replaced by the verifier's author. Signature is fixed.
import type { PackModel, Plan } from '../model/types.js';

/** Rules the verifier checks. */
export type VerifyRule =
  | 'vehicles' | 'bounds' | 'overlap' | 'support' | 'orientation' | 'weight' | 'stacking'
  | 'stack_items' | 'blocked_area' | 'instances' | 'steps' | 'figures';

/** One broken rule in a plan. */
export interface Violation {
  rule: VerifyRule;
  message: string;
  vehicle?: number;
  item_id?: string;
  instance?: number;
}

/** Checks a plan against its model; returns every violation found (empty = the plan is valid). */
export function verifyPlan(model: PackModel, plan: Plan): Violation[] {
  void model; void plan;
  return [];
}
