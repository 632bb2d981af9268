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
import { loadingSteps, restsOn, underDeck, type Box } from './loading-steps.js';
import { RULE_HEAVY_ON_LIGHT, RULE_PALLET_BASE } from './load-state.js';
import { EPS } from './maximal-space.js';
import { StackStability } from './stack-stability.js';
import { vehicleFigures } from './vehicle-figures.js';
import { groupRanks } from './job-context.js';

interface Unit extends Box {
  item: number;
  orientation: Placement['orientation'];
  /** A pinned unit's instance (pinned.ts), undefined for the units the search placed. */
  instance?: number;
  /** A pinned unit's position among its vehicle copy's pinned units, in request order. */
  order?: number;
}

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
 * `rule_max_slenderness` (takeDownSlender; the construction's score does not count them out).
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
    let units: Unit[] = [];
    for (const b of lv.blocks) {
      if (b.pinned) {
        units.push({
          item: b.item,
          orientation: b.orientation,
          rank: rank(b.item),
          kind: b.item,
          instance: b.pinned.instance,
          order: b.pinned.order,
          x: b.x,
          y: b.y,
          z: b.z,
          dx: b.size.l,
          dy: b.size.h,
          dz: b.size.w,
          ...(b.pinned.nest > 0 ? { nest: b.pinned.nest } : {}),
        });
        continue;
      }
      if (b.stagger) {
        // A staggered block: each circle's bounding square (2r × 2r), layer over layer.
        const r = b.stagger.radius;
        for (const c of b.stagger.centres) {
          for (let iy = 0; iy < b.ny; iy++) {
            units.push({
              item: b.item,
              orientation: b.orientation,
              rank: rank(b.item),
              kind: b.item,
              x: b.x + c.x - r,
              y: b.y + iy * b.size.pitch,
              z: b.z + c.z - r,
              dx: b.size.l,
              dy: b.size.h,
              dz: b.size.w,
              ...(iy > 0 && b.size.pitch < b.size.h ? { nest: b.size.h - b.size.pitch } : {}),
            });
          }
        }
        continue;
      }
      for (let ix = 0; ix < b.nx; ix++) {
        for (let iy = 0; iy < b.ny; iy++) {
          for (let iz = 0; iz < b.nz; iz++) {
            units.push({
              item: b.item,
              orientation: b.orientation,
              rank: rank(b.item),
              x: b.x + ix * b.size.l,
              y: b.y + iy * b.size.pitch,
              z: b.z + iz * b.size.w,
              dx: b.size.l,
              dy: b.size.h,
              dz: b.size.w,
              // Units of one column nest into the one below (pitch < height).
              ...(iy > 0 && b.size.pitch < b.size.h
                ? { nest: b.size.h - b.size.pitch, kind: b.item }
                : { kind: b.item }),
            });
          }
        }
      }
    }
    const deckHeight = lv.vehicle.auxDeck?.height ?? null;
    const stable = ratio > 0 ? { width: lv.vehicle.width, ratio } : undefined;
    let steps = pinnedFirst(units, deckHeight, stable);
    if (stable) ({ units, steps } = takeDownSlender(units, steps, deckHeight, stable, takenDown));
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

/**
 * Loading steps (1-based, per unit) with the pinned units first: the pinned units in request
 * order when that order loads every unit after what it rests on (and, with a second deck, the
 * floor below a deck section before the units on it: loading-steps.ts), as a re-plan from a step
 * sends them, else in the order loadingSteps gives them among themselves; then the others in
 * the order loadingSteps gives them among all units. Both orders put every unit after what it
 * rests on; pinned units never rest on others (admission checks them alone), so the joined order
 * does too.
 */
function pinnedFirst(
  units: readonly Unit[],
  deckHeight: number | null,
  stable: { width: number; ratio: number } | undefined,
): number[] {
  const all = loadingSteps(units, deckHeight, stable);
  const pinned = units
    .map((_, i) => i)
    .filter((i) => units[i]!.instance !== undefined)
    .sort((a, b) => units[a]!.order! - units[b]!.order!);
  if (pinned.length === 0) return all;
  const boxes = pinned.map((i) => units[i]!);
  const before = restsOn(boxes, deckHeight);
  underDeck(boxes, deckHeight).forEach((l, k) => before[k]!.push(...l));
  const requestOrderHolds = before.every((l, k) => l.every((j) => j < k));
  const own = requestOrderHolds ? boxes.map((_, k) => k + 1) : loadingSteps(boxes, deckHeight);
  const steps = new Array<number>(units.length);
  pinned.forEach((ui, k) => (steps[ui] = own[k]!));
  const rest = units
    .map((_, i) => i)
    .filter((i) => units[i]!.instance === undefined)
    .sort((a, b) => all[a]! - all[b]!);
  rest.forEach((ui, k) => (steps[ui] = pinned.length + k + 1));
  return steps;
}

/**
 * Takes down the stacks that stand free and too slender at their step (max_slenderness,
 * stack-stability.ts) under `steps`: the first searched unit whose loading breaks the rule, with
 * every unit resting on it directly or not, leaves the plan (counted per item in `takenDown`),
 * the steps are made again, and so on until no step breaks it. Pinned units stay (admission
 * checked them alone, and they load first). Returns the units kept and their steps.
 */
function takeDownSlender(
  units: Unit[],
  steps: number[],
  deckHeight: number | null,
  stable: { width: number; ratio: number },
  takenDown: number[],
): { units: Unit[]; steps: number[] } {
  for (;;) {
    const below = restsOn(units, deckHeight);
    const stability = new StackStability(units, below, stable.width, stable.ratio);
    const order = units.map((_, i) => i).sort((a, b) => steps[a]! - steps[b]!);
    const bad = order.find((i) => {
      const breaks = units[i]!.instance === undefined && stability.unstable(i);
      if (!breaks) stability.load(i);
      return breaks;
    });
    if (bad === undefined) return { units, steps };
    const above: number[][] = units.map(() => []);
    below.forEach((l, i) => l.forEach((j) => above[j]!.push(i)));
    const gone = new Set<number>([bad]);
    const todo = [bad];
    while (todo.length > 0) {
      for (const k of above[todo.pop()!]!) {
        if (gone.has(k)) continue;
        gone.add(k);
        todo.push(k);
      }
    }
    for (const k of gone) takenDown[units[k]!.item]!++;
    units = units.filter((_, k) => !gone.has(k));
    steps = pinnedFirst(units, deckHeight, stable);
  }
}
