/**
 * The plan of the pinned units alone (request Vehicle.loaded): every vehicle copy with pinned
 * units carrying them and nothing else, every other unit unplaced (`no_space`). The admission of
 * a request with pinned units verifies it (api/http/pack-request/pinned-admission.ts): pinned
 * units that break a packing rule by themselves break it in every plan.
 */
import type { PackModel, Plan } from '../../domain/pack/plan.js';
import type { Construction } from './fleet-load.js';
import { jobContext } from './job-context.js';
import { assemblePlan } from './plan-assembly.js';
import { strategyAt } from './strategy.js';

/** The plan of `model`'s pinned units alone, vehicles in model order, copies ascending. */
export function pinnedOnlyPlan(model: PackModel): Plan {
  const ctx = jobContext(model);
  const remaining = model.items.map((it, i) => it.quantity - ctx.pinnedCount[i]!);
  const construction: Construction = {
    strategy: strategyAt(model.seed, 0),
    vehicles: ctx.pinned.map((seed) => ({
      vehicle: model.vehicles[seed.vehicle]!,
      blocks: seed.blocks.slice(),
      weight: seed.weight,
      volume: seed.volume,
      momentX: seed.momentX,
      momentZ: seed.momentZ,
      minX: seed.minX,
      maxX: seed.maxX,
      cut: false,
      copy: seed.copy,
      autoAdded: false,
    })),
    remaining,
    weightBlocked: model.items.map(() => false),
    loadBlocked: model.items.map(() => false),
    axleBlocked: model.items.map(() => false),
    ruleBlocked: model.items.map(() => 0),
    cut: false,
    vehicleLimitHit: false,
  };
  return assemblePlan(model, construction);
}
