/**
 * The plan being edited in the viewer (plan editing): the revision opened (its layout and the
 * job's resolved model), the operations done since (edit-history.ts), the layout they make
 * (solver/edit applyOperations) and its check by the service's own verifier (solver/edit
 * checkLayout), plus the deeds of the edit mode as operations: move a unit (drag, keyboard step),
 * turn it, take it out, place an unplaced one. Vehicles are named by their index in the opened
 * revision's result, as the operations name them. Pure: no DOM, no three.js (tested from node).
 */
import type { Orientation, PackModel, Plan, VehicleModel } from '../../../domain/pack/plan.js';
import { layoutOf, placedSize, unitKey, type Layout, type LayoutUnit } from '../../../solver/edit/layout.js';
import { applyOperations, type EditOperation, type EditedLayout } from '../../../solver/edit/operations.js';
import { checkLayout, type PlanCheck, type PlanProblem, type ProblemUnit } from '../../../solver/edit/plan-check.js';
import { EditHistory } from './edit-history.js';
import {
  keepInside,
  nextOrientation,
  nudgeBox,
  snapBox,
  type Axis,
  type CargoSpace,
  type SolidBox,
} from './snapping.js';

/** Where a unit stands in the edited layout: its vehicle (index in the opened result) and its layout entry. */
export interface UnitPlace {
  vehicle: number;
  unit: LayoutUnit;
}

/** A check of the edited layout and how long it took (ms, rebuild of the plan and verification). */
export interface TimedCheck extends PlanCheck {
  ms: number;
  /** `item_id#instance` → index of the last operation that changed the unit. */
  touchedBy: Map<string, number>;
  /** Operations that could not apply (none when every deed came from the edit mode). */
  errors: EditedLayout['errors'];
}

/** The clock checks are timed with (performance.now in browsers and node). */
const now = (): number => globalThis.performance.now();

/** The edit state of one opened revision. */
export class PlanEditor {
  readonly history = new EditHistory();
  readonly base: Layout;
  private edited: EditedLayout | null = null;
  private readonly items: Map<string, PackModel['items'][number]>;

  /** `plan`: the opened revision's plan, made for `model`. */
  constructor(
    readonly model: PackModel,
    plan: Plan,
  ) {
    this.base = layoutOf(plan);
    this.items = new Map(model.items.map((it) => [it.id, it] as const).reverse());
  }

  /** The operations done since the revision was opened (what a save sends). */
  get operations(): readonly EditOperation[] {
    return this.history.operations;
  }

  /** The layout after the operations (kept until the next deed, undo or redo). */
  layout(): EditedLayout {
    this.edited ??= applyOperations(this.model, this.base, this.history.operations);
    return this.edited;
  }

  /** Checks the edited layout, or the edited layout with `tentative` done on top (a unit being dragged). */
  check(tentative?: EditOperation): TimedCheck {
    const began = now();
    const edited = tentative
      ? applyOperations(this.model, this.base, [...this.history.operations, tentative])
      : this.layout();
    const check = checkLayout(this.model, edited.layout);
    return { ...check, ms: now() - began, touchedBy: edited.touchedBy, errors: edited.errors };
  }

  /** Where `unit` stands now, or null when it is unplaced. */
  where(unit: ProblemUnit): UnitPlace | null {
    const key = unitKey(unit.item_id, unit.instance);
    const vehicles = this.layout().layout.vehicles;
    for (let v = 0; v < vehicles.length; v++) {
      const u = vehicles[v]!.placements.find((p) => unitKey(p.item_id, p.instance) === key);
      if (u) return { vehicle: v, unit: u };
    }
    return null;
  }

  /** The item definition of `itemId` (throws when the model has none: the plan came from another model). */
  item(itemId: string): PackModel['items'][number] {
    const it = this.items.get(itemId);
    if (!it) throw new Error(`item ${itemId} is not in the job's model`);
    return it;
  }

  /** The box `unit` fills at `at` (min corner) turned `orientation`, cm. */
  boxOf(itemId: string, at: { x: number; y: number; z: number }, orientation: Orientation): SolidBox {
    return { x: at.x, y: at.y, z: at.z, ...placedSize(this.item(itemId), orientation) };
  }

  /** The boxes of every unit of `vehicle` but `except`. */
  boxesIn(vehicle: number, except?: ProblemUnit): SolidBox[] {
    const v = this.layout().layout.vehicles[vehicle];
    if (!v) return [];
    return v.placements
      .filter((u) => !except || u.item_id !== except.item_id || u.instance !== except.instance)
      .map((u) => this.boxOf(u.item_id, u, u.orientation));
  }

  /** The vehicle definition of result vehicle `vehicle`. */
  definition(vehicle: number): VehicleModel | undefined {
    const id = this.base.vehicles[vehicle]?.vehicle_id;
    return this.model.vehicles.find((v) => v.id === id);
  }

  /** The cargo space of result vehicle `vehicle` (all zeros when its definition is unknown). */
  space(vehicle: number): CargoSpace {
    const d = this.definition(vehicle);
    return {
      length: d?.length ?? 0,
      width: d?.width ?? 0,
      height: d?.height ?? 0,
      deckHeight: d?.auxDeck?.height ?? null,
    };
  }

  /**
   * Where a unit dragged to `box` in `vehicle` lands: snapped to its neighbours' faces and the
   * walls (snapping.ts snapBox).
   */
  snapped(unit: ProblemUnit, vehicle: number, box: SolidBox): SolidBox {
    return snapBox(box, this.boxesIn(vehicle, unit), this.space(vehicle));
  }

  /** The operation that puts `unit` at `box`'s corner in `vehicle` turned `orientation` (move when placed, else place). */
  destination(unit: ProblemUnit, vehicle: number, box: SolidBox, orientation: Orientation): EditOperation {
    return {
      op: this.where(unit) ? 'move' : 'place',
      item_id: unit.item_id,
      instance: unit.instance,
      vehicle,
      x: box.x,
      y: box.y,
      z: box.z,
      orientation,
    };
  }

  /** Moves or places `unit` (a drop or a click): recorded unless it lands where it stands. Returns true when recorded. */
  put(unit: ProblemUnit, vehicle: number, box: SolidBox, orientation: Orientation): boolean {
    const at = this.where(unit);
    if (
      at &&
      at.vehicle === vehicle &&
      at.unit.orientation === orientation &&
      at.unit.x === box.x &&
      at.unit.y === box.y &&
      at.unit.z === box.z
    )
      return false;
    this.doOp(this.destination(unit, vehicle, box, orientation));
    return true;
  }

  /**
   * One keyboard step of a placed unit: `delta` cm along `axis`, stopping at the first face
   * (snapping.ts nudgeBox); steps of one unit in a row merge into one operation. Returns false
   * when the unit is unplaced or did not move (a wall).
   */
  step(unit: ProblemUnit, axis: Axis, delta: number): boolean {
    const at = this.where(unit);
    if (!at) return false;
    const box = this.boxOf(unit.item_id, at.unit, at.unit.orientation);
    const to = nudgeBox(box, this.boxesIn(at.vehicle, unit), this.space(at.vehicle), axis, delta);
    if (to[axis] === box[axis]) return false;
    this.doOp(this.destination(unit, at.vehicle, to, at.unit.orientation), true);
    return true;
  }

  /** Turns a placed unit to its item's next allowed orientation in place (kept inside the walls); false when it has only one. */
  turn(unit: ProblemUnit): boolean {
    const at = this.where(unit);
    if (!at) return false;
    const orientation = nextOrientation(this.item(unit.item_id).orientations, at.unit.orientation);
    if (orientation === at.unit.orientation) return false;
    const box = keepInside(this.boxOf(unit.item_id, at.unit, orientation), this.space(at.vehicle));
    this.doOp(this.destination(unit, at.vehicle, box, orientation));
    return true;
  }

  /** Takes a placed unit out (to the unplaced); false when it is not placed. */
  remove(unit: ProblemUnit): boolean {
    if (!this.where(unit)) return false;
    this.doOp({ op: 'remove', item_id: unit.item_id, instance: unit.instance });
    return true;
  }

  /** Takes the last operation back; null when there is none. */
  undo(): EditOperation | null {
    const op = this.history.undo();
    this.edited = null;
    return op;
  }

  /** Does the last undone operation again; null when there is none. */
  redo(): EditOperation | null {
    const op = this.history.redo();
    this.edited = null;
    return op;
  }

  private doOp(op: EditOperation, merge = false): void {
    this.history.record(op, { merge });
    this.edited = null;
  }
}

/**
 * The problems of `check` about `unit`: those naming it in `units`, and those whose message names
 * it (the verifier writes units as `item#instance`; some rules list only one of the two units
 * they concern, e.g. `stacking` the unit carrying, not the one resting on it).
 */
export function problemsOf(check: Pick<PlanCheck, 'problems'>, unit: ProblemUnit): PlanProblem[] {
  const name = unitKey(unit.item_id, unit.instance);
  const mentioned = (message: string): boolean => {
    for (let at = message.indexOf(name); at >= 0; at = message.indexOf(name, at + 1)) {
      const before = message[at - 1];
      const after = message[at + name.length];
      if ((before === undefined || !/[\w#-]/.test(before)) && (after === undefined || !/\d/.test(after))) return true;
    }
    return false;
  };
  return check.problems.filter(
    (p) => p.units.some((u) => u.item_id === unit.item_id && u.instance === unit.instance) || mentioned(p.message),
  );
}
