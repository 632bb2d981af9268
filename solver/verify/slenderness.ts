/**
 * Rule `max_slenderness` (safe stacks, our extension; Options.max_slenderness, default 3): after
 * every loading step, no stack stands free and too slender (docs/solver.md, "Safe stacks").
 *
 * - A **stack** is a set of two or more loaded units joined by resting contacts (contact.ts):
 *   a column, or columns bridged by units across them (interlocked). Its height is its highest
 *   top less its lowest base (cm); its base is the bounding rectangle of its lowest units.
 * - Along the length (x) and across the width (z) apart, the stack is **held** up to a height by
 *   the front wall (x = 0, along x) or a side wall (z = 0 or the vehicle's width, along z) that
 *   one of its units touches, up to that unit's top; and by a unit loaded before, outside the
 *   stack, whose side face touches one of its units, up to the lower of the two tops. The door
 *   end holds nothing: it is open while the crew loads.
 * - The part of the stack above what holds it along an axis is at most the ratio times the
 *   base's extent along that axis.
 * Only the stack of the unit just loaded can break the rule at a step (every other stack keeps
 * its units and may only gain support), so the check walks the steps once; each stack is
 * reported once, at the first step that breaks it. A stack that becomes stable only when later
 * units arrive is not stable at its own step.
 */
import type { StackingRules } from '../../domain/pack/plan.js';
import type { Contact } from './contact.js';
import type { LoadedVehicle, PlacedUnit } from './placed-unit.js';
import type { Violation } from './violation.js';
import { LENGTH_TOLERANCE, RELATIVE_TOLERANCE, num, unitName } from './violation.js';

/** A unit touching another one's side face (index) and the top of their common face, cm. */
interface SideContact {
  other: number;
  top: number;
}

/** Bucket width for finding touching faces, cm (neighbouring buckets are searched too). */
const FACE_BUCKET = 1e-3;

/**
 * For each unit, the units whose side face touches it across x (faces at the same x, overlapping
 * in z and y with positive area) and across z: `[alongX, alongZ]`.
 */
export function sideContacts(units: readonly PlacedUnit[]): [SideContact[][], SideContact[][]] {
  const alongX: SideContact[][] = units.map(() => []);
  const alongZ: SideContact[][] = units.map(() => []);
  const pass = (
    lo: (u: PlacedUnit) => number,
    hi: (u: PlacedUnit) => number,
    across: (u: PlacedUnit) => [number, number],
    out: SideContact[][],
  ): void => {
    const byStart = new Map<number, number[]>();
    units.forEach((u, i) => {
      if (!Number.isFinite(lo(u))) return;
      const k = Math.round(lo(u) / FACE_BUCKET);
      const list = byStart.get(k);
      if (list) list.push(i);
      else byStart.set(k, [i]);
    });
    units.forEach((u, i) => {
      const end = hi(u);
      if (!Number.isFinite(end)) return;
      const k = Math.round(end / FACE_BUCKET);
      for (const key of [k - 1, k, k + 1]) {
        for (const j of byStart.get(key) ?? []) {
          if (j === i) continue;
          const w = units[j]!;
          if (Math.abs(lo(w) - end) > LENGTH_TOLERANCE) continue;
          const [a0, a1] = across(u);
          const [b0, b1] = across(w);
          if (!(Math.min(a1, b1) - Math.max(a0, b0) > LENGTH_TOLERANCE)) continue;
          if (!(Math.min(u.y1, w.y1) - Math.max(u.y0, w.y0) > LENGTH_TOLERANCE)) continue;
          const top = Math.min(u.y1, w.y1);
          out[i]!.push({ other: j, top });
          out[j]!.push({ other: i, top });
        }
      }
    });
  };
  pass(
    (u) => u.x0,
    (u) => u.x1,
    (u) => [u.z0, u.z1],
    alongX,
  );
  pass(
    (u) => u.z0,
    (u) => u.z1,
    (u) => [u.x0, u.x1],
    alongZ,
  );
  return [alongX, alongZ];
}

/** One stack while the steps are walked (kept at its union-find root). */
interface Stack {
  members: number[];
  base: number;
  top: number;
  x0: number;
  x1: number;
  z0: number;
  z1: number;
  reported: boolean;
}

/** Checks one vehicle step by step (units in ascending Placement.step); see the module comment. */
export function checkSlenderness(
  vehicle: LoadedVehicle,
  below: readonly Contact[][],
  rules: StackingRules,
): Violation[] {
  const ratio = rules.maxSlenderness;
  if (!(ratio > 0) || vehicle.units.length < 2) return [];
  const units = vehicle.units;
  const [alongX, alongZ] = sideContacts(units);
  const parent = units.map((_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) {
      parent[i] = parent[parent[i]!]!;
      i = parent[i]!;
    }
    return i;
  };
  const stacks: Stack[] = units.map((u, i) => ({
    members: [i],
    base: u.y0,
    top: u.y1,
    x0: u.x0,
    x1: u.x1,
    z0: u.z0,
    z1: u.z1,
    reported: false,
  }));
  const join = (a: number, b: number): void => {
    let ra = find(a),
      rb = find(b);
    if (ra === rb) return;
    if (stacks[ra]!.members.length < stacks[rb]!.members.length) [ra, rb] = [rb, ra];
    const s = stacks[ra]!,
      t = stacks[rb]!;
    parent[rb] = ra;
    for (const m of t.members) s.members.push(m);
    if (t.base < s.base - LENGTH_TOLERANCE) Object.assign(s, { base: t.base, x0: t.x0, x1: t.x1, z0: t.z0, z1: t.z1 });
    else if (Math.abs(t.base - s.base) <= LENGTH_TOLERANCE) {
      s.x0 = Math.min(s.x0, t.x0);
      s.x1 = Math.max(s.x1, t.x1);
      s.z0 = Math.min(s.z0, t.z0);
      s.z1 = Math.max(s.z1, t.z1);
    }
    s.top = Math.max(s.top, t.top);
    s.reported ||= t.reported;
  };
  const loaded = units.map(() => false);
  const order = units.map((_, i) => i).sort((a, b) => units[a]!.placement.step - units[b]!.placement.step || a - b);
  const violations: Violation[] = [];
  for (const u of order) {
    loaded[u] = true;
    for (const c of below[u] ?? []) join(u, c.lower);
    const root = find(u);
    const stack = stacks[root]!;
    if (stack.members.length < 2 || stack.reported) continue;
    const height = stack.top - stack.base;
    for (const axis of ['x', 'z'] as const) {
      const extent = axis === 'x' ? stack.x1 - stack.x0 : stack.z1 - stack.z0;
      const allowed = ratio * extent;
      if (height <= allowed * (1 + RELATIVE_TOLERANCE) + LENGTH_TOLERANCE) continue;
      let held = stack.base;
      for (const m of stack.members) {
        const unit = units[m]!;
        const wall =
          axis === 'x'
            ? unit.x0 <= LENGTH_TOLERANCE
            : unit.z0 <= LENGTH_TOLERANCE || unit.z1 >= vehicle.width - LENGTH_TOLERANCE;
        if (wall) held = Math.max(held, unit.y1);
        for (const s of (axis === 'x' ? alongX : alongZ)[m]!) {
          if (loaded[s.other] && find(s.other) !== root) held = Math.max(held, s.top);
        }
      }
      const free = stack.top - held;
      if (free <= allowed * (1 + RELATIVE_TOLERANCE) + LENGTH_TOLERANCE) continue;
      stack.reported = true;
      const p = units[u]!.placement;
      const side = axis === 'x' ? 'along the length (x)' : 'across the width (z)';
      violations.push({
        rule: 'max_slenderness',
        vehicle: vehicle.position,
        item_id: p.item_id,
        instance: p.instance,
        others: stack.members
          .filter((m) => m !== u)
          .sort((a, b) => a - b)
          .map((m) => ({ item_id: units[m]!.placement.item_id, instance: units[m]!.placement.instance })),
        message: `After step ${p.step} (${unitName(p.item_id, p.instance)}), a stack of ${stack.members.length} units in vehicle ${vehicle.position} stands ${num(height)} cm tall on a base ${num(extent)} cm ${side}, held up to y = ${num(held)} cm: ${num(free)} cm stand free, more than max_slenderness ${num(ratio)} × ${num(extent)} cm = ${num(allowed)} cm.`,
      });
      break;
    }
  }
  return violations;
}
