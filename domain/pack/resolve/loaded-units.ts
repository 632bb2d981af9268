/**
 * Pinned units (our extension, request Vehicle.loaded): units already loaded in copies of a
 * vehicle, read into PackModel.vehicles[i].loaded. The rules here are those of one entry and of
 * the counts; whether the pinned units together break a packing rule (overlap, support,
 * stacking, load bearing, payload, blocked areas, decks, hazardous, groups) is checked on a plan
 * of the pinned units alone by api/http/pack-request/pinned-admission.ts. Lengths in cm.
 */
import type { ErrorDetail } from '../diagnostics.js';
import { ALL_ORIENTATIONS, type ItemModel, type Orientation, type PinnedUnit, type VehicleModel } from '../plan.js';
import { finite, isFields, listOf, oneOf, text, wholeIn } from './coercion.js';
import { placedSize } from './orientations.js';

/** Geometric tolerance of the bounds check, cm (the verifier's LENGTH_TOLERANCE). */
const TOLERANCE = 1e-6;

/** A number for a message: integers as is, others to at most 6 decimals. */
const num = (v: number): string => (Number.isInteger(v) ? String(v) : String(Number(v.toFixed(6))));

/**
 * Reads `vehicles[i].loaded` of every vehicle entry (`raw`, in request order, one per model
 * vehicle) against the resolved `vehicles` and `items`, and returns the pinned units per vehicle
 * (an empty list when none). Problems pushed onto `details`, each at
 * `vehicles[i].loaded[j]` or one of its fields:
 * - `item_id` naming no item of the request → `invalid_value` (`.item_id`);
 * - `copy` above the vehicle's quantity → `out_of_range` (`.copy`);
 * - an orientation the item's rotation rule (and shape) does not allow → `invalid_value`
 *   (`.orientation`, the allowed ones listed);
 * - the unit not inside the cargo space (x + placed length ≤ length, y + height ≤ height,
 *   z + width ≤ width, within 1e-6 cm) → `out_of_range`;
 * - more units of an item pinned than its quantity → `out_of_range` at the first entry beyond it.
 * Entries the JSON Schema refuses (missing or ill-typed fields) are skipped: the schema reports them.
 */
export function readLoadedUnits(
  raw: readonly unknown[],
  vehicles: readonly VehicleModel[],
  items: readonly ItemModel[],
  details: ErrorDetail[],
): PinnedUnit[][] {
  const byId = new Map<string, number>();
  items.forEach((it, i) => {
    if (!byId.has(it.id)) byId.set(it.id, i);
  });
  const pinned = items.map(() => 0);
  return vehicles.map((vehicle, i) => {
    const entry = raw[i];
    const list = isFields(entry) ? listOf(entry.loaded) : [];
    const out: PinnedUnit[] = [];
    list.forEach((u, j) => {
      const path = `vehicles[${i}].loaded[${j}]`;
      if (!isFields(u)) return;
      const id = text(u.item_id);
      const orientation = oneOf<Orientation>(ALL_ORIENTATIONS, u.orientation);
      const copy = u.copy === undefined ? 1 : wholeIn(u.copy, 1, Number.MAX_SAFE_INTEGER);
      const { x, y, z } = u;
      if (id === undefined || !orientation || copy === undefined || !finite(x) || !finite(y) || !finite(z)) return;
      if (x < 0 || y < 0 || z < 0) return;
      const item = byId.get(id);
      let ok = true;
      if (item === undefined) {
        details.push({
          path: `${path}.item_id`,
          code: 'invalid_value',
          message: `item_id "${id}" names no item of this request`,
        });
        ok = false;
      }
      if (copy > vehicle.quantity) {
        details.push({
          path: `${path}.copy`,
          code: 'out_of_range',
          message: `copy ${copy} is beyond the ${vehicle.quantity} listed cop${vehicle.quantity === 1 ? 'y' : 'ies'} of vehicle ${vehicle.id}; raise its quantity to pin units in that copy`,
        });
        ok = false;
      }
      if (item === undefined) return;
      const it = items[item]!;
      if (!it.orientations.includes(orientation)) {
        details.push({
          path: `${path}.orientation`,
          code: 'invalid_value',
          message: `orientation ${orientation} is not allowed for item ${it.id} (allowed: ${it.orientations.join(', ')})`,
        });
        return;
      }
      const size = placedSize(orientation, it);
      const ends = { x: x + size.length, y: y + size.height, z: z + size.width };
      if (
        ends.x > vehicle.length + TOLERANCE ||
        ends.y > vehicle.height + TOLERANCE ||
        ends.z > vehicle.width + TOLERANCE
      ) {
        details.push({
          path,
          code: 'out_of_range',
          message: `the unit of item ${it.id} at x ${num(x)}, y ${num(y)}, z ${num(z)} turned ${orientation} (${num(size.length)} × ${num(size.width)} × ${num(size.height)} cm) reaches x ${num(ends.x)}, y ${num(ends.y)}, z ${num(ends.z)}: outside the cargo space of vehicle ${vehicle.id} (${num(vehicle.length)} × ${num(vehicle.width)} × ${num(vehicle.height)} cm)`,
        });
        return;
      }
      pinned[item]!++;
      if (pinned[item]! === it.quantity + 1) {
        details.push({
          path,
          code: 'out_of_range',
          message: `more units of item ${it.id} are pinned than its quantity ${it.quantity}: each pinned unit is one unit of the item`,
        });
        return;
      }
      if (!ok || pinned[item]! > it.quantity) return;
      out.push({ item, x, y, z, orientation, copy });
    });
    return out;
  });
}
