/**
 * Rule `group_routing` (spec Options.group_routing, Group.order): with `wall` every group has its
 * own section of the length, lower orders nearer the front wall; with `routing` no unit rests on
 * a unit of a later group; with `no_stack` no unit rests on a unit of another group. With any of
 * the three the loading steps of a vehicle follow the groups' order. Groups are ordered by
 * `order`, then name; items without a group come last, as one group.
 */
import type { PackModel } from '../../domain/pack/plan.js';
import type { Contact } from './contact.js';
import type { LoadedVehicle } from './placed-unit.js';
import type { Violation } from './violation.js';
import { LENGTH_TOLERANCE, num, unitName } from './violation.js';

/** Each item id's place in the groups' loading order (0 = first). */
export function groupPlaces(model: PackModel): Map<string, number> {
  const label = (g: string | null): string => (g === null ? '' : `#${g}`);
  const groups = [...new Map(model.items.map((it) => [`${it.groupOrder}:${label(it.group)}`, it])).values()].sort(
    (a, b) =>
      a.groupOrder - b.groupOrder || (label(a.group) < label(b.group) ? -1 : label(a.group) > label(b.group) ? 1 : 0),
  );
  const place = new Map(groups.map((it, k) => [`${it.groupOrder}:${label(it.group)}`, k]));
  return new Map(model.items.map((it) => [it.id, place.get(`${it.groupOrder}:${label(it.group)}`)!]));
}

const groupName = (group: string | null | undefined): string => (group ? `group "${group}"` : 'no group');

/** Checks one vehicle against `model.groupRouting`; `places` from groupPlaces. */
export function checkGroupRouting(
  vehicle: LoadedVehicle,
  below: readonly Contact[][],
  model: PackModel,
  places: ReadonlyMap<string, number>,
): Violation[] {
  const mode = model.groupRouting;
  if (mode === 'none') return [];
  const out: Violation[] = [];
  const at = vehicle.position;
  const place = (u: number): number => places.get(vehicle.units[u]!.placement.item_id) ?? 0;
  const name = (u: number): string => {
    const p = vehicle.units[u]!.placement;
    return unitName(p.item_id, p.instance);
  };
  const group = (u: number): string => groupName(vehicle.units[u]!.item?.group);

  if (mode === 'routing' || mode === 'no_stack') {
    for (const contacts of below) {
      for (const c of contacts) {
        const upper = place(c.upper),
          lower = place(c.lower);
        const broken = mode === 'routing' ? lower > upper : lower !== upper;
        if (!broken) continue;
        const p = vehicle.units[c.upper]!.placement;
        out.push({
          rule: 'group_routing',
          vehicle: at,
          item_id: p.item_id,
          instance: p.instance,
          message:
            mode === 'routing'
              ? `${name(c.upper)} (${group(c.upper)}) rests on ${name(c.lower)} of a later group (${group(c.lower)}) in vehicle ${at}; with group_routing "routing" a later group never goes under an earlier one.`
              : `${name(c.upper)} (${group(c.upper)}) rests on ${name(c.lower)} (${group(c.lower)}) in vehicle ${at}; with group_routing "no_stack" groups never rest on one another.`,
        });
      }
    }
  }

  if (mode === 'wall') {
    // Per group place: the section it occupies along the length; sections must follow the order.
    const sections = new Map<number, { x0: number; x1: number; unit: number }>();
    vehicle.units.forEach((u, i) => {
      const s = sections.get(place(i));
      if (!s) sections.set(place(i), { x0: u.x0, x1: u.x1, unit: i });
      else {
        s.x0 = Math.min(s.x0, u.x0);
        s.x1 = Math.max(s.x1, u.x1);
      }
    });
    const ordered = [...sections.entries()].sort((a, b) => a[0] - b[0]);
    let reach = -Infinity,
      reachUnit = -1;
    for (const [, s] of ordered) {
      if (reachUnit >= 0 && s.x0 < reach - LENGTH_TOLERANCE) {
        const p = vehicle.units[s.unit]!.placement;
        out.push({
          rule: 'group_routing',
          vehicle: at,
          item_id: p.item_id,
          instance: p.instance,
          message: `In vehicle ${at} ${group(s.unit)} starts at x = ${num(s.x0)} cm, inside the section of an earlier group (${group(reachUnit)} reaches x = ${num(reach)} cm); with group_routing "wall" each group has its own section.`,
        });
      }
      if (s.x1 > reach) [reach, reachUnit] = [s.x1, s.unit];
    }
  }

  // Loading steps follow the groups' order.
  const bySteps = vehicle.units
    .map((_, i) => i)
    .sort((a, b) => vehicle.units[a]!.placement.step - vehicle.units[b]!.placement.step);
  for (let k = 1; k < bySteps.length; k++) {
    const before = bySteps[k - 1]!,
      after = bySteps[k]!;
    if (place(after) >= place(before)) continue;
    const p = vehicle.units[after]!.placement;
    out.push({
      rule: 'group_routing',
      vehicle: at,
      item_id: p.item_id,
      instance: p.instance,
      message: `${name(after)} (${group(after)}) is loaded at step ${p.step}, after ${name(before)} of a later group (${group(before)}, step ${vehicle.units[before]!.placement.step}); with group_routing "${mode}" groups load in order.`,
    });
  }
  return out;
}
