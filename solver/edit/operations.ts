/**
 * Edit operations on a layout (plan revisions, POST /v1/jobs/{id}/revisions, and the viewer's
 * edit mode): move a placed unit, place an unplaced one, remove one to the unplaced, swap two.
 * Vehicles are named by their index in the base result; units by item id and instance.
 * Browser-safe.
 */
import type { Orientation, PackModel } from '../../domain/pack/plan.js';
import { unitKey, type Layout, type LayoutUnit } from './layout.js';
import type { PlanProblem, ProblemUnit } from './plan-check.js';

/** Where a moved or placed unit goes: a base result vehicle index, its min corner (cm) and orientation. */
interface Destination {
  vehicle: number;
  x: number;
  y: number;
  z: number;
  orientation: Orientation;
}

/**
 * One edit (wire shape of a revision's `operations[]`):
 * - `move` a placed unit to a vehicle, position and orientation;
 * - `place` an unplaced unit the same way;
 * - `remove` a placed unit to the unplaced;
 * - `swap` two units: each takes the other's vehicle and position (min corner) and keeps its
 *   orientation; with an unplaced one, the placed one becomes unplaced and the other takes its
 *   place, turned like it when its item allows that orientation, else its first allowed one.
 */
export type EditOperation =
  | ({ op: 'move' | 'place'; item_id: string; instance: number } & Destination)
  | { op: 'remove'; item_id: string; instance: number }
  | { op: 'swap'; a: ProblemUnit; b: ProblemUnit };

/** An operation that could not be applied: its index in the list and why. */
export interface OperationError {
  index: number;
  message: string;
}

/** A layout after edits; `touchedBy` maps `item_id#instance` to the last operation that changed the unit. */
export interface EditedLayout {
  layout: Layout;
  errors: OperationError[];
  touchedBy: Map<string, number>;
}

/**
 * Applies `ops` in order to `base` (whose vehicles are the base result's, by index). An operation
 * that cannot apply (a unit the model does not have, a move or removal of an unplaced unit, a
 * place of a placed one, a vehicle index outside the base result, an orientation the item does
 * not allow, a swap of a unit with itself or of two unplaced units) is skipped and reported in
 * `errors`; the others still apply. The layout keeps every base vehicle, emptied ones included
 * (planFromLayout leaves those out). Never throws.
 */
export function applyOperations(model: PackModel, base: Layout, ops: readonly EditOperation[]): EditedLayout {
  const vehicles = base.vehicles.map((v) => ({ ...v, placements: [...v.placements] }));
  const where = new Map<string, number>();
  vehicles.forEach((v, i) => v.placements.forEach((u) => where.set(unitKey(u.item_id, u.instance), i)));
  const items = new Map(model.items.map((it) => [it.id, it] as const).reverse());
  const errors: OperationError[] = [];
  const touchedBy = new Map<string, number>();

  const known = (u: ProblemUnit): string | null => {
    const item = items.get(u.item_id);
    if (!item) return `item ${JSON.stringify(u.item_id)} is not in the request`;
    if (!Number.isInteger(u.instance) || u.instance < 1 || u.instance > item.quantity)
      return `${unitKey(u.item_id, u.instance)}: instance must be 1..${item.quantity} (the item's quantity)`;
    return null;
  };
  const take = (key: string): LayoutUnit => {
    const v = vehicles[where.get(key)!]!;
    const k = v.placements.findIndex((u) => unitKey(u.item_id, u.instance) === key);
    const [unit] = v.placements.splice(k, 1);
    where.delete(key);
    return unit!;
  };
  const put = (u: ProblemUnit, to: Destination): void => {
    const { vehicle, x, y, z, orientation } = to;
    vehicles[vehicle]!.placements.push({ item_id: u.item_id, instance: u.instance, x, y, z, orientation });
    where.set(unitKey(u.item_id, u.instance), vehicle);
  };
  const destinationProblem = (u: ProblemUnit, to: Destination): string | null => {
    if (!Number.isInteger(to.vehicle) || to.vehicle < 0 || to.vehicle >= vehicles.length)
      return `vehicle ${to.vehicle} is not in the result (its vehicles are 0..${vehicles.length - 1})`;
    const item = items.get(u.item_id)!;
    if (!item.orientations.includes(to.orientation))
      return `${unitKey(u.item_id, u.instance)} may not stand in orientation ${to.orientation} (allowed: ${item.orientations.join(', ')})`;
    return null;
  };

  ops.forEach((op, index) => {
    const fail = (message: string): void => void errors.push({ index, message });
    if (op.op === 'swap') {
      const bad = known(op.a) ?? known(op.b);
      if (bad) return fail(bad);
      const ka = unitKey(op.a.item_id, op.a.instance);
      const kb = unitKey(op.b.item_id, op.b.instance);
      if (ka === kb) return fail(`a swap needs two different units, got ${ka} twice`);
      if (!where.has(ka) && !where.has(kb)) return fail(`neither ${ka} nor ${kb} is placed: nothing to swap`);
      const va = where.get(ka);
      const vb = where.get(kb);
      const ua = va === undefined ? null : take(ka);
      const ub = vb === undefined ? null : take(kb);
      const turned = (u: ProblemUnit, like: LayoutUnit, own: LayoutUnit | null): Orientation => {
        if (own) return own.orientation;
        const allowed = items.get(u.item_id)!.orientations;
        return allowed.includes(like.orientation) ? like.orientation : allowed[0]!;
      };
      if (ub) put(op.a, { vehicle: vb!, x: ub.x, y: ub.y, z: ub.z, orientation: turned(op.a, ub, ua) });
      if (ua) put(op.b, { vehicle: va!, x: ua.x, y: ua.y, z: ua.z, orientation: turned(op.b, ua, ub) });
      touchedBy.set(ka, index);
      touchedBy.set(kb, index);
      return;
    }
    const bad = known(op);
    if (bad) return fail(bad);
    const key = unitKey(op.item_id, op.instance);
    const placed = where.has(key);
    if (op.op === 'remove') {
      if (!placed) return fail(`${key} is not placed: nothing to remove`);
      take(key);
    } else {
      if (op.op === 'move' && !placed) return fail(`${key} is not placed: use "place" for an unplaced unit`);
      if (op.op === 'place' && placed) return fail(`${key} is already placed: use "move"`);
      const problem = destinationProblem(op, op);
      if (problem) return fail(problem);
      if (placed) take(key);
      put(op, op);
    }
    touchedBy.set(key, index);
  });
  const unplaced = (base.unplaced ?? []).filter((u) => !where.has(unitKey(u.item_id, u.instance)));
  return { layout: { vehicles, unplaced }, errors, touchedBy };
}

/** The operation that caused `problem`: the last one that touched one of its units, else null. */
export function operationOf(problem: PlanProblem, touchedBy: ReadonlyMap<string, number>): number | null {
  let last: number | null = null;
  for (const u of problem.units) {
    const index = touchedBy.get(unitKey(u.item_id, u.instance));
    if (index !== undefined && (last === null || index > last)) last = index;
  }
  return last;
}
