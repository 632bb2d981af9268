/**
 * Vehicle presets: read-only saved vehicles provided by the service, listed with the
 * organization's vehicles and named by a slug id (spec "Resources and their fields": "vehicle
 * `veh_` (presets keep a slug as id)"; PATCH/DELETE answer `403 preset_read_only`).
 * Dimensions are inner cargo-space sizes in cm, `max_weight` the payload in kg; figures are
 * typical of current European / ISO equipment and meant as sensible starting points.
 */
import type { SavedVehicle } from '../pack/request.js';

export type { SavedVehicle };

const CATALOG: SavedVehicle[] = [
  {
    id: 'semi-trailer-13-6',
    name: 'Semi-trailer 13.6 m (tautliner)',
    type: 'trailer',
    length: 1360,
    width: 248,
    height: 270,
    max_weight: 24_000,
  },
  {
    id: 'mega-trailer-13-6',
    name: 'Mega trailer 13.6 m (3 m inner height)',
    type: 'trailer',
    length: 1360,
    width: 248,
    height: 300,
    max_weight: 24_000,
  },
  {
    id: 'container-20-dry',
    name: "20' dry container",
    type: 'container',
    length: 589,
    width: 235,
    height: 239,
    max_weight: 28_200,
  },
  {
    id: 'container-40-dry',
    name: "40' dry container",
    type: 'container',
    length: 1203,
    width: 235,
    height: 239,
    max_weight: 26_700,
  },
  {
    id: 'container-40-hc',
    name: "40' high-cube container",
    type: 'container',
    length: 1203,
    width: 235,
    height: 269,
    max_weight: 26_500,
  },
  {
    id: 'swap-body-7-2',
    name: 'Swap body 7.2 m',
    type: 'truck',
    length: 720,
    width: 248,
    height: 270,
    max_weight: 11_000,
  },
  { id: 'van-3-5t', name: 'Van 3.5 t', type: 'truck', length: 420, width: 175, height: 190, max_weight: 1_100 },
  {
    id: 'rigid-7-5t',
    name: 'Rigid truck 7.5 t',
    type: 'truck',
    length: 620,
    width: 245,
    height: 240,
    max_weight: 2_800,
  },
  { id: 'rigid-18t', name: 'Rigid truck 18 t', type: 'truck', length: 750, width: 248, height: 260, max_weight: 9_000 },
  {
    id: 'pallet-eur',
    name: 'EUR pallet (1200 × 800, 160 cm load height)',
    type: 'pallet',
    length: 120,
    width: 80,
    height: 160,
    max_weight: 1_500,
  },
  {
    id: 'pallet-us',
    name: 'US pallet (48 × 40 in, 160 cm load height)',
    type: 'pallet',
    length: 121.9,
    width: 101.6,
    height: 160,
    max_weight: 1_500,
  },
];

/** The preset catalog, in the order GET /v1/vehicles lists it (frozen). */
export const VEHICLE_PRESETS: readonly SavedVehicle[] = Object.freeze(CATALOG.map((v) => Object.freeze(v)));

const byId = new Map(VEHICLE_PRESETS.map((v) => [v.id, v] as const));

/** The preset with this slug id, or undefined. */
export function findPreset(id: string): SavedVehicle | undefined {
  return byId.get(id);
}
