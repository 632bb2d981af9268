/**
 * The loading list of a plan (GET /v1/jobs/{id}/loading_list, our extension): one row per unit in
 * loading order — vehicles in plan order (`index`), units by loading step within their vehicle —
 * then one row per unplaced unit, marked `unplaced` with its reason (spec UnplacedItem.reason)
 * and without vehicle, step, position or size. Lengths cm to the mm (1 decimal), weights kg (one
 * unit) to 0.1 kg: the precision people read, without the float noise of summed positions.
 * After the spec's Placement fields come the facts a planner checks that the Placement does not
 * carry, read from the job's resolved model: the unit's group (spec Item.group: the stop in a
 * multi-drop plan), whether it is hazardous (spec Item.hazardous) and the units it rests on.
 */
import type { ItemModel, PackModel, Plan, PlannedVehicle } from '../../../domain/pack/plan.js';
import { itemsById } from '../../../solver/verify/placed-unit.js';
import { restingOnUnits } from './loading-list-support.js';

/** A cell: text or a number (numbers stay numbers in both file formats). */
export type LoadingListCell = string | number;

/**
 * The header row, in column order. The first fifteen are the list's original columns, in their
 * original order; `group`, `hazardous` and `rests_on` follow them, so a reader of the earlier
 * columns by position reads the same.
 */
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
  'group',
  'hazardous',
  'rests_on',
] as const;

/** One unit's row, keyed by LOADING_LIST_COLUMNS; '' where a value does not apply (unplaced units). */
export type LoadingListRow = Record<(typeof LOADING_LIST_COLUMNS)[number], LoadingListCell>;

/** Decimals of the `_cm` columns: to the mm. */
export const LENGTH_DECIMALS = 1;
/** Decimals of `weight_kg`: to 0.1 kg. */
export const WEIGHT_DECIMALS = 1;

/** `value` rounded half up to `decimals` places; -0 reads 0. */
function rounded(value: number, decimals: number): number {
  const scale = 10 ** decimals;
  const r = Math.round(value * scale) / scale;
  return r === 0 ? 0 : r;
}

/** A length in cm as the list shows it: to the mm (e.g. 122.98120000000002 → 123). */
export const listLength = (cm: number): number => rounded(cm, LENGTH_DECIMALS);

/** A weight in kg as the list shows it: to 0.1 kg (e.g. 600.011987036 → 600). */
export const listWeight = (kg: number): number => rounded(kg, WEIGHT_DECIMALS);

/** Between the unit names of `rests_on` ("pallet#1, pallet#2"). */
export const RESTS_ON_SEPARATOR = ', ';

/** The vehicle as people read it, in ASCII around the user's name: "#1 Box truck (box-truck, copy 2)" (1-based position in loading order). */
export function vehicleName(v: Pick<PlannedVehicle, 'index' | 'name' | 'vehicle_id' | 'copy'>): string {
  return `#${v.index + 1} ${v.name} (${v.vehicle_id}, copy ${v.copy})`;
}

/** `group` and `hazardous` of a unit of `item` ('' when the model has no such item: nothing to claim). */
function itemFacts(item: ItemModel | undefined): Pick<LoadingListRow, 'group' | 'hazardous'> {
  if (!item) return { group: '', hazardous: '' };
  return { group: item.group ?? '', hazardous: item.hazardous ? 'yes' : 'no' };
}

/**
 * Every row of `plan`: placed units in loading order, then the unplaced units in the plan's
 * order. `model` is the job's resolved model (its items give group and hazardous; its items and
 * vehicles the footprints and deck heights `rests_on` is read with). Throws nothing.
 */
export function loadingListRows(plan: Plan, model: PackModel): LoadingListRow[] {
  const items = itemsById(model);
  const restingOn = restingOnUnits(model, plan);
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
        x_cm: listLength(p.x),
        y_cm: listLength(p.y),
        z_cm: listLength(p.z),
        length_cm: listLength(p.length),
        width_cm: listLength(p.width),
        height_cm: listLength(p.height),
        orientation: p.orientation,
        weight_kg: listWeight(p.weight),
        status: 'placed',
        unplaced_reason: '',
        ...itemFacts(items.get(p.item_id)),
        rests_on: (restingOn.get(p) ?? []).join(RESTS_ON_SEPARATOR),
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
      ...itemFacts(items.get(u.item_id)),
      rests_on: '',
    });
  }
  return rows;
}
