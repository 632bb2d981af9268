/**
 * Turns a construction into the spec Result shapes (types.ts Plan): one Placement per unit
 * with its instance number, placed size and loading step; per-vehicle figures; and the
 * unplaced units with their reason. Coordinates are kept exact (no rounding).
 */
import {
  STACKING_OFF,
  type PackModel,
  type Placement,
  type Plan,
  type PlannedVehicle,
  type UnplacedReason,
  type UnplacedUnit,
} from '../../domain/pack/plan.js';
import type { Construction } from './fleet-load.js';
import { RULE_HEAVY_ON_LIGHT, RULE_MAX_SLENDERNESS, RULE_PALLET_BASE } from './load-state.js';
import { EPS } from './maximal-space.js';
import { pinnedFirst, takeDownSlender, unitsOf } from './stable-loading.js';
import { vehicleFigures } from './vehicle-figures.js';
import { groupRanks } from './job-context.js';

/**
 * Why the units of item `i` left over by `c` are unplaced (spec UnplacedItem.reason):
 * `time_limit` when the deadline cut the construction, `vehicle_limit` when auto mode stopped
 * at maxVehicles and a unit would fit an empty vehicle of some definition, `weight_limit` when
 * a unit fitted a space but not the payload, `load_limit` when a unit fitted a space but the load
 * it would put on the units or floor under it was too much, `rule_pallets_on_cartons` /
 * `rule_heavy_on_light` when a unit fitted a space but a safe stacking rule kept it off what the
 * space stands on (safe-stacking.ts), `axle_limit` when it would have
 * overloaded an axle or was unloaded to bring axles or centre of gravity within limits, else `no_space`.
 */
export function unplacedReason(model: PackModel, c: Construction, i: number): UnplacedReason {
  if (c.cut) return 'time_limit';
  const it = model.items[i]!;
  if (c.vehicleLimitHit) {
    const fits = model.vehicles.some(
      (v) =>
        (model.allowOverweight || it.weight <= v.maxWeight) &&
        it.orientations.some((o) => {
          const d = (ch: string): number => (ch === 'l' ? it.length : ch === 'w' ? it.width : it.height);
          return d(o[0]!) <= v.length + EPS && d(o[1]!) <= v.width + EPS && d(o[2]!) <= v.height + EPS;
        }),
    );
    if (fits) return 'vehicle_limit';
  }
  if (c.weightBlocked[i]) return 'weight_limit';
  if (c.loadBlocked[i]) return 'load_limit';
  const rule = c.ruleBlocked[i] ?? 0;
  if (rule & RULE_PALLET_BASE) return 'rule_pallets_on_cartons';
  if (rule & RULE_HEAVY_ON_LIGHT) return 'rule_heavy_on_light';
  if (rule & RULE_MAX_SLENDERNESS) return 'rule_max_slenderness';
  if (c.axleBlocked[i]) return 'axle_limit';
  return 'no_space';
}

/**
 * Builds the Plan of construction `c` for `model`. Pinned units (pinned.ts) keep their instances
 * (1..k of their item, in request order), the other units of an item follow from k + 1; in each
 * vehicle the pinned units take the first loading steps (in request order when it holds, see
 * pinnedFirst), the others follow in their own order. Under the safe stacking rule
 * max_slenderness the loading order keeps stacks stable where it can (loading-steps.ts
 * `stable`), and a stack that would still stand free and too slender at a step is taken down:
 * the unit that made it so and every unit resting on it, directly or not, are unplaced with
 * `rule_max_slenderness` (stable-loading.ts; the vehicle loads do this already, so this is a last
 * guard).
 */
export function assemblePlan(model: PackModel, c: Construction): Plan {
  const nextInstance = model.items.map(() => 1);
  for (const v of model.vehicles) for (const u of v.loaded ?? []) nextInstance[u.item]!++;
  // With a group routing the crew loads group by group (the search never puts a group under a later one).
  const ranks = groupRanks(model);
  const rank = (item: number): number => (model.groupRouting === 'none' ? 0 : ranks[item]!);
  const vehicles: PlannedVehicle[] = [];
  const ratio = (model.stacking ?? STACKING_OFF).maxSlenderness;
  const takenDown = model.items.map(() => 0);
  c.vehicles.forEach((lv, index) => {
    let units = unitsOf(lv.blocks, rank);
    const deckHeight = lv.vehicle.auxDeck?.height ?? null;
    const stable = ratio > 0 ? { width: lv.vehicle.width, ratio } : undefined;
    let steps: number[];
    if (!stable) steps = pinnedFirst(units, deckHeight, stable);
    else {
      // The vehicle loads took such stacks down already (stable-loading.ts takeDownInLoad); this
      // is the last guard, for a load changed after that.
      const { kept, steps: order, gone } = takeDownSlender(units, deckHeight, stable);
      for (const u of gone) takenDown[u.item]!++;
      units = kept;
      steps = order;
    }
    const order = units.map((_, i) => i).sort((a, b) => steps[a]! - steps[b]!);
    const v = lv.vehicle;
    const placements: Placement[] = order.map((ui) => {
      const u = units[ui]!;
      const it = model.items[u.item]!;
      const instance = u.instance ?? nextInstance[u.item]!;
      if (u.instance === undefined) nextInstance[u.item] = instance + 1;
      return {
        item_id: it.id,
        instance,
        label: it.label,
        x: u.x,
        y: u.y,
        z: u.z,
        length: u.dx,
        width: u.dz,
        height: u.dy,
        rotated: u.orientation !== 'lwh',
        orientation: u.orientation,
        step: steps[ui]!,
        weight: it.weight,
      };
    });
    // A nested unit occupies only what sticks out of the one under it.
    const { axle_loads, ...figures } = vehicleFigures(
      v,
      placements.map((placement, k) => ({ placement, nested: units[order[k]!]!.nest ?? 0 })),
    );
    vehicles.push({
      index,
      vehicle_id: v.id,
      copy: lv.copy,
      auto_added: lv.autoAdded,
      name: v.name,
      type: v.type,
      length: v.length,
      width: v.width,
      height: v.height,
      max_weight: v.maxWeight,
      items_placed: placements.length,
      ...figures,
      placements,
      // Spec ResultVehicle field order: axle loads after the placements.
      ...(axle_loads ? { axle_loads } : {}),
    });
  });
  const unplaced: UnplacedUnit[] = [];
  model.items.forEach((it, i) => {
    if (nextInstance[i]! > it.quantity) return;
    const reason = unplacedReason(model, c, i);
    const first = nextInstance[i]!;
    for (let n = first; n <= it.quantity; n++) {
      const why = n - first < takenDown[i]! ? 'rule_max_slenderness' : reason;
      unplaced.push({ item_id: it.id, instance: n, label: it.label, reason: why });
    }
  });
  return { vehicles, unplaced };
}
