/**
 * Checks a layout with the independent verifier (solver/verify) after rebuilding its plan
 * (layout.ts): the answer of POST /v1/plans/verify and of every plan revision, and what the
 * viewer's edit mode shows while a unit is moved. Browser-safe.
 */
import type { PackModel, Plan } from '../../domain/pack/plan.js';
import { verifyPlan } from '../verify/verify.js';
import { planFromLayout, type Layout } from './layout.js';

/** A unit a problem names. */
export interface ProblemUnit {
  item_id: string;
  instance: number;
}

/**
 * One broken rule: the verifier's rule name (solver/verify/violation.ts VerifyRule), its English
 * message with the numbers (cm, kg) and the units it concerns (none for vehicle-wide problems).
 */
export interface PlanProblem {
  rule: string;
  message: string;
  units: ProblemUnit[];
}

/** A checked layout: valid when no rule is broken; `plan` is the layout's rebuilt plan. */
export interface PlanCheck {
  valid: boolean;
  problems: PlanProblem[];
  plan: Plan;
}

/**
 * Rebuilds the plan of `layout` (planFromLayout) and verifies it against `model` with every rule
 * the solver's plans pass. Never throws.
 */
export function checkLayout(model: PackModel, layout: Layout): PlanCheck {
  const plan = planFromLayout(model, layout);
  const problems = verifyPlan(model, plan).map((v): PlanProblem => ({
    rule: v.rule,
    message: v.message,
    units: [
      ...(v.item_id !== undefined && v.instance !== undefined ? [{ item_id: v.item_id, instance: v.instance }] : []),
      ...(v.others ?? []),
    ],
  }));
  return { valid: problems.length === 0, problems, plan };
}
