/**
 * Turns a construction into the spec Result shapes (types.ts Plan): one Placement per unit
 * with its instance number, placed size and loading step; per-vehicle figures; and the
 * unplaced units with their reason. Coordinates are kept exact (no rounding).
 */
import type {
  PackModel,
  Placement,
  Plan,
  PlannedVehicle,
  UnplacedReason,
  UnplacedUnit,
} from '../../domain/pack/plan.js';
import type { Construction } from './fleet-load.js';
import { loadingSteps, restsOn, underDeck, type Box } from './loading-steps.js';
import { EPS } from './maximal-space.js';
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
 * it would put on the units or floor under it was too much, `axle_limit` when it would have
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
  if (c.axleBlocked[i]) return 'axle_limit';
  return 'no_space';
}

/**
 * Builds the Plan of construction `c` for `model`. Pinned units (pinned.ts) keep their instances
 * (1..k of their item, in request order), the other units of an item follow from k + 1; in each
 * vehicle the pinned units take the first loading steps (in request order when it holds, see
 * pinnedFirst), the others follow in their own order.
 */
export function assemblePlan(model: PackModel, c: Construction): Plan {
  const nextInstance = model.items.map(() => 1);
  for (const v of model.vehicles) for (const u of v.loaded ?? []) nextInstance[u.item]!++;
  // With a group routing the crew loads group by group (the search never puts a group under a later one).
  const ranks = groupRanks(model);
  const rank = (item: number): number => (model.groupRouting === 'none' ? 0 : ranks[item]!);
  const vehicles: PlannedVehicle[] = [];
  c.vehicles.forEach((lv, index) => {
    const units: Unit[] = [];
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
    const steps = pinnedFirst(units, lv.vehicle.auxDeck?.height ?? null);
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
    for (let n = nextInstance[i]!; n <= it.quantity; n++) {
      unplaced.push({ item_id: it.id, instance: n, label: it.label, reason });
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
function pinnedFirst(units: readonly Unit[], deckHeight: number | null): number[] {
  const all = loadingSteps(units, deckHeight);
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
