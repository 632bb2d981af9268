/**
 * The loading list of a plan (GET /v1/jobs/{id}/loading_list, our extension): one row per unit in
 * loading order — vehicles in plan order (`index`), units by loading step within their vehicle —
 * then one row per unplaced unit, marked `unplaced` with its reason (spec UnplacedItem.reason)
 * and without vehicle, step, position or size. Lengths cm, weights kg (one unit).
 */
import type { Plan, PlannedVehicle } from '../../../domain/pack/plan.js';

/** A cell: text or a number (numbers stay numbers in both file formats). */
export type LoadingListCell = string | number;

/** The header row, in column order. */
export const LOADING_LIST_COLUMNS = [
  'step',
  'vehicle',
  'item_id',
  'instance',
  'label',
  'x_cm',
  'y_cm',
  'z_cm',
  'length_cm',
  'width_cm',
  'height_cm',
  'orientation',
  'weight_kg',
  'status',
  'unplaced_reason',
] as const;

/** One unit's row, keyed by LOADING_LIST_COLUMNS; '' where a value does not apply (unplaced units). */
export type LoadingListRow = Record<(typeof LOADING_LIST_COLUMNS)[number], LoadingListCell>;

/** The vehicle as people read it, in ASCII around the user's name: "#1 Box truck (box-truck, copy 2)" (1-based position in loading order). */
export function vehicleName(v: Pick<PlannedVehicle, 'index' | 'name' | 'vehicle_id' | 'copy'>): string {
  return `#${v.index + 1} ${v.name} (${v.vehicle_id}, copy ${v.copy})`;
}

/** Every row of `plan`: placed units in loading order, then the unplaced units in the plan's order. */
export function loadingListRows(plan: Pick<Plan, 'vehicles' | 'unplaced'>): LoadingListRow[] {
  const rows: LoadingListRow[] = [];
  for (const v of [...plan.vehicles].sort((a, b) => a.index - b.index)) {
    const vehicle = vehicleName(v);
    for (const p of [...v.placements].sort((a, b) => a.step - b.step)) {
      rows.push({
        step: p.step,
        vehicle,
        item_id: p.item_id,
        instance: p.instance,
        label: p.label,
        x_cm: p.x,
        y_cm: p.y,
        z_cm: p.z,
        length_cm: p.length,
        width_cm: p.width,
        height_cm: p.height,
        orientation: p.orientation,
        weight_kg: p.weight,
        status: 'placed',
        unplaced_reason: '',
      });
    }
  }
  for (const u of plan.unplaced) {
    rows.push({
      step: '',
      vehicle: '',
      item_id: u.item_id,
      instance: u.instance,
      label: u.label,
      x_cm: '',
      y_cm: '',
      z_cm: '',
      length_cm: '',
      width_cm: '',
      height_cm: '',
      orientation: '',
      weight_kg: '',
      status: 'unplaced',
      unplaced_reason: u.reason,
    });
  }
  return rows;
}
