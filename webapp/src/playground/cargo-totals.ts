/**
 * The cargo's totals under the playground's item table, before a run: units (sum of quantities),
 * volume (cm³) and weight (kg) of the request's items, the inner volume and payload of the
 * request's vehicles, and the cargo's share of them (spec PackRequest → Item, Vehicle). An item
 * or vehicle that names a saved record (`template_id`, `vehicle_id`) takes every figure it does
 * not send from that record (spec: fields sent next to the id override the saved values). Pure:
 * the saved records come in as lookups.
 */
import type { DisplayUnits } from '../units/measure.js';

/** A request entry (item or vehicle) as the JSON holds it. */
export type RequestEntry = Readonly<Record<string, unknown>>;

/** The figures of a saved template or vehicle the totals read (cm, kg); absent when not known. */
export interface SavedFigures {
  shape?: string;
  length?: number;
  width?: number;
  height?: number;
  radius?: number;
  weight?: number;
  max_weight?: number;
}

/** Saved records by id (templates for items, vehicles for vehicles). */
export type SavedLookup = ReadonlyMap<string, SavedFigures>;

/** The totals of the items: `counted` items add to volume and weight; `uncounted` lack a size or weight. */
export interface CargoTotals {
  /** Sum of the quantities (spec default 1). */
  units: number;
  /** cm³, over the counted items. */
  volume: number;
  /** kg, over the counted items. */
  weight: number;
  /** Items whose size or weight is not known (not in `volume`/`weight`). */
  uncounted: number;
}

/** The room of the vehicles: inner volume and payload times quantity. */
export interface VehicleRoom {
  /** Vehicles counted (sum of quantities). */
  vehicles: number;
  /** cm³, inner cargo space of the counted vehicles. */
  volume: number;
  /** kg, payload (max_weight) of the counted vehicles. */
  payload: number;
  /** Vehicle entries whose size or payload is not known (a saved list not loaded yet, an unknown id). */
  uncounted: number;
}

/** The cargo's share of the vehicles, 0–1 (may exceed 1 when the cargo is too much). */
export interface CargoShare {
  volume: number;
  weight: number;
}

const nonNegative = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined;

/** An entry's quantity: its `quantity` when a number of 0 or more, else 1 (spec default). */
export const quantityOf = (entry: RequestEntry): number => nonNegative(entry['quantity']) ?? 1;

/** A figure of `entry`: its own when a number of 0 or more, else the saved record's. */
function figure(entry: RequestEntry, field: keyof SavedFigures, saved: SavedFigures | undefined): number | undefined {
  return nonNegative(entry[field]) ?? nonNegative(saved?.[field]);
}

const savedOf = (entry: RequestEntry, idField: string, lookup: SavedLookup): SavedFigures | undefined => {
  const id = entry[idField];
  return typeof id === 'string' ? lookup.get(id) : undefined;
};

/**
 * One unit of an item: its volume (cm³: length × width × height, or π r² h for a `cylinder` or
 * `drum`) and weight (kg); null when a figure is missing from the item and its template.
 */
export function unitFigures(item: RequestEntry, templates: SavedLookup): { volume: number; weight: number } | null {
  const saved = savedOf(item, 'template_id', templates);
  const shape = typeof item['shape'] === 'string' ? item['shape'] : saved?.shape;
  const height = figure(item, 'height', saved);
  const weight = figure(item, 'weight', saved);
  if (height === undefined || weight === undefined) return null;
  if (shape === 'cylinder' || shape === 'drum') {
    const radius = figure(item, 'radius', saved);
    return radius === undefined ? null : { volume: Math.PI * radius * radius * height, weight };
  }
  const length = figure(item, 'length', saved);
  const width = figure(item, 'width', saved);
  if (length === undefined || width === undefined) return null;
  return { volume: length * width * height, weight };
}

/** The totals of `items`: each item's unit volume and weight times its quantity, summed. */
export function cargoTotals(items: readonly RequestEntry[], templates: SavedLookup): CargoTotals {
  const totals: CargoTotals = { units: 0, volume: 0, weight: 0, uncounted: 0 };
  for (const item of items) {
    const quantity = quantityOf(item);
    totals.units += quantity;
    const unit = unitFigures(item, templates);
    if (unit === null) totals.uncounted += 1;
    else {
      totals.volume += unit.volume * quantity;
      totals.weight += unit.weight * quantity;
    }
  }
  return totals;
}

/** The room of `vehicles`: each one's inner length × width × height (cm³) and max_weight (kg) times its quantity. */
export function vehicleRoom(vehicles: readonly RequestEntry[], saved: SavedLookup): VehicleRoom {
  const room: VehicleRoom = { vehicles: 0, volume: 0, payload: 0, uncounted: 0 };
  for (const vehicle of vehicles) {
    const record = savedOf(vehicle, 'vehicle_id', saved);
    const [length, width, height, payload] = (['length', 'width', 'height', 'max_weight'] as const).map((f) =>
      figure(vehicle, f, record),
    );
    if (length === undefined || width === undefined || height === undefined || payload === undefined) {
      room.uncounted += 1;
      continue;
    }
    const quantity = quantityOf(vehicle);
    room.vehicles += quantity;
    room.volume += length * width * height * quantity;
    room.payload += payload * quantity;
  }
  return room;
}

/**
 * The cargo's share of the room: volume ÷ inner volume and weight ÷ payload (0 for a room of
 * volume or payload 0); null when no vehicle is counted (nothing to compare with).
 */
export function cargoShare(cargo: CargoTotals, room: VehicleRoom): CargoShare | null {
  if (room.vehicles === 0) return null;
  return {
    volume: room.volume > 0 ? cargo.volume / room.volume : 0,
    weight: room.payload > 0 ? cargo.weight / room.payload : 0,
  };
}

/** Cubic centimetres in one cubic foot (30.48³ exactly). */
export const CM3_PER_CUBIC_FOOT = 28316.846592;

/** A volume in cm³ shown in `units`: m³ (metric) or ft³ (imperial), not rounded. */
export const volumeToDisplay = (cm3: number, units: DisplayUnits): number =>
  units === 'imperial' ? cm3 / CM3_PER_CUBIC_FOOT : cm3 / 1_000_000;

/** The label of a volume in `units`: `m³` or `ft³`. */
export const volumeUnitLabel = (units: DisplayUnits): string => (units === 'imperial' ? 'ft³' : 'm³');
