/**
 * One entry of PackRequest.vehicles on its way to a VehicleModel (spec Vehicle): the saved vehicle
 * named by `vehicle_id` merged with the fields sent beside it, the fields required without one,
 * the organization's vehicle types, the rules between its fields (field-rules.ts), and the
 * spec defaults once the whole request is known to be valid. Lengths in cm, weights in kg.
 */
import type { ErrorDetail } from '../diagnostics.js';
import { VEHICLE_TYPES, type Rect, type VehicleType } from '../request.js';
import type { VehicleModel } from '../plan.js';
import { axleModelOf } from './axle-model.js';
import { isFields, merge, nonNegative, oneOf, positive, text, wholeIn, type Fields } from './coercion.js';
import { auxDeckRules, axleRules, blockedAreasOnFloor } from './field-rules.js';
import type { VehicleSpace } from './fit.js';
import type { ResolveContext } from './resolve-context.js';

/** The fields a saved vehicle supplies and a request may override (spec Vehicle table). */
const VEHICLE_FIELDS = [
  'type',
  'length',
  'width',
  'height',
  'max_weight',
  'quantity',
  'floor_load_capacity',
  'aux_deck',
  'aux_deck_height',
  'aux_deck_max_weight',
  'blocked_areas',
  'axle_positions',
  'axle_max_loads',
  'cog_range_x',
  'cog_range_y',
  'tractor_weight',
  'empty_trailer_weight',
  'front_axle_to_middle_axle',
  'front_axle_to_tractor_cog',
  'front_axle_to_kingpin',
  'kingpin_to_rear_axle',
  'trailer_cog_to_rear_axle',
  'trailer_start_to_kingpin',
  'max_middle_axle_weight',
  'max_rear_axle_weight',
] as const;

/** A vehicle entry read as far as its values allow; `space` and `type` are undefined when not usable. */
export interface VehicleDraft {
  /** Position in PackRequest.vehicles. */
  index: number;
  /** `vehicles[<index>]`, the prefix of its problem paths. */
  path: string;
  /** Saved fields with the request's overrides. */
  fields: Fields;
  /** `id`, else `vehicle_id`; undefined when neither is sent. */
  givenId: string | undefined;
  /** `vehicle_id` when the id was defaulted from it, else null. */
  defaultedFrom: string | null;
  name: string | undefined;
  savedName: string | undefined;
  type: VehicleType | undefined;
  /** Inner size and payload; undefined when one is missing or `vehicle_id` names nothing. */
  space: VehicleSpace | undefined;
  /** 1–100, default 1. */
  quantity: number;
  blockedAreas: Rect[];
}

/**
 * Reads vehicle entry `raw` at position `i`, pushing its problems onto `details` in this order:
 * `unknown_vehicle`; `required` (type, length, width, height, max_weight without `vehicle_id`);
 * `type_not_allowed`; aux deck, blocked areas and axle rules (field-rules.ts). Undefined when
 * `raw` is not an object.
 */
export function draftVehicle(
  raw: unknown,
  i: number,
  ctx: Pick<ResolveContext, 'findVehicle' | 'allowedVehicleTypes'>,
  details: ErrorDetail[],
): VehicleDraft | undefined {
  if (!isFields(raw)) return undefined;
  const path = `vehicles[${i}]`;
  const vid = text(raw.vehicle_id);
  const saved = vid !== undefined ? ctx.findVehicle(vid) : undefined;
  if (vid !== undefined && !saved) {
    details.push({
      path: `${path}.vehicle_id`,
      code: 'unknown_vehicle',
      message: `no preset or own vehicle has the id "${vid}"`,
    });
  }
  const f = merge(VEHICLE_FIELDS, saved, raw);
  if (raw.vehicle_id === undefined) {
    for (const k of ['type', 'length', 'width', 'height', 'max_weight'] as const) {
      if (f[k] === undefined)
        details.push({
          path: `${path}.${k}`,
          code: 'required',
          message: `${k} is required unless vehicle_id names a saved vehicle`,
        });
    }
  }
  const type = oneOf(VEHICLE_TYPES, f.type);
  if (type !== undefined && !ctx.allowedVehicleTypes.includes(type)) {
    details.push({
      path: raw.type !== undefined ? `${path}.type` : `${path}.vehicle_id`,
      code: 'type_not_allowed',
      message: `vehicle type "${type}" is not enabled for the organization; allowed: ${ctx.allowedVehicleTypes.join(', ') || 'none'}`,
    });
  }
  const length = positive(f.length);
  const width = positive(f.width);
  const height = positive(f.height);
  const maxWeight = positive(f.max_weight);

  auxDeckRules(f, path, height, details);
  const blockedAreas = blockedAreasOnFloor(f.blocked_areas, `${path}.blocked_areas`, length, width, details);
  axleRules(f, path, length, width, details);

  const space =
    length !== undefined &&
    width !== undefined &&
    height !== undefined &&
    maxWeight !== undefined &&
    (vid === undefined || saved)
      ? { length, width, height, maxWeight }
      : undefined;
  return {
    index: i,
    path,
    fields: f,
    givenId: text(raw.id) ?? vid,
    defaultedFrom: raw.id === undefined && vid !== undefined ? 'vehicle_id' : null,
    name: text(raw.name),
    savedName: saved?.name,
    type,
    space,
    quantity: wholeIn(f.quantity, 1, 100) ?? 1,
    blockedAreas,
  };
}

/**
 * The VehicleModel of a usable draft (`space` and `type` set) under id `id`. Defaults: name =
 * name sent, else the saved name, else the id; floor_load_capacity 0 (none); no aux deck unless
 * aux_deck is true with its height and payload; axles only with `axleAccess` (axle-model.ts).
 */
export function vehicleModelOf(v: VehicleDraft, id: string, axleAccess: boolean): VehicleModel {
  const space = v.space!;
  const deckHeight = positive(v.fields.aux_deck_height);
  const deckWeight = positive(v.fields.aux_deck_max_weight);
  return {
    id,
    name: v.name ?? v.savedName ?? id,
    type: v.type!,
    length: space.length,
    width: space.width,
    height: space.height,
    maxWeight: space.maxWeight,
    quantity: v.quantity,
    blockedAreas: v.blockedAreas,
    floorLoadCapacity: nonNegative(v.fields.floor_load_capacity) ?? 0,
    axles: axleModelOf(v.fields, axleAccess),
    auxDeck:
      v.fields.aux_deck === true && deckHeight !== undefined && deckWeight !== undefined
        ? { height: deckHeight, maxWeight: deckWeight }
        : null,
  };
}
