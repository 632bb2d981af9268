/**
 * Saved vehicles (spec Endpoints: GET/POST /v1/vehicles, GET/PATCH/DELETE /v1/vehicles/{id};
 * saved data; Deleted): the saved-record routes (api/http/routes/saved-records.ts) for vehicles, with
 * the preset catalog. Writes are events on `vehicle-<id>` streams; reads come from the
 * `vehicles` projection and the preset catalog.
 *
 * Record (component `SavedVehicle`; `Vehicle` is the PackRequest's): `{id: 'veh_…', object:
 * 'vehicle', preset: false, name, type, length, width, height, max_weight, <every other Vehicle
 * field of the spec that was set: floor_load_capacity, aux_deck, aux_deck_height,
 * aux_deck_max_weight, blocked_areas, axle_positions, axle_max_loads, cog_range_x, cog_range_y,
 * the semi-trailer fields>, created_at, updated_at, created_by: {id, name}, updated_by: {id,
 * name}}`. Presets: `{id: '<slug>', object: 'vehicle', preset: true, name, type, length, width,
 * height, max_weight, created_at: null, updated_at: null, created_by: null, updated_by: null}`.
 *
 * POST body (`VehicleInput`): the spec's Vehicle fields except `id`, `vehicle_id` and `quantity`
 * (request-only); name, type, length, width, height, max_weight required; type within the
 * organization's allowed_vehicle_types (detail `type_not_allowed`); the cross-field rules of a
 * pack request (aux deck, blocked areas on the floor, axle arrays, cog ranges) apply.
 *
 * List: the organization's vehicles newest first, then the presets in catalog order; `q` matches
 * name or id; `created_by` lists own vehicles only (presets have no creator).
 */
import { findPreset, VEHICLE_PRESETS } from '../../../domain/vehicle/presets.js';
import { VEHICLE_RECORD, type VehicleFields } from '../../../domain/vehicle/vehicle.js';
import { VEHICLES } from '../../../projections/vehicles/projection.js';
import { PACK_REQUEST_SCHEMA } from '../pack-request/schema.js';
import { probeProblems } from '../saved-record.js';
import { savedRecordRoutes } from './saved-records.js';

const {
  id: _id,
  vehicle_id: _vehicleId,
  quantity: _quantity,
  name: requestName,
  blocked_areas: blockedAreas,
  // Pinned units belong to one pack request, not to a saved vehicle.
  loaded: _loaded,
  ...otherVehicleFields
} = PACK_REQUEST_SCHEMA.$defs.Vehicle.properties;

// A tiny item that fits anything: the probe request only exercises the vehicle rules of resolution.
const PROBE_ITEM = { id: 'probe', length: 0.001, width: 0.001, height: 0.001, weight: 0.000001 };

/** Route module: router, OpenAPI docs and the component schemas SavedVehicle, VehicleInput, VehiclePatch, VehicleList. */
export const vehiclesRoutes = savedRecordRoutes<'Vehicle', 'vehicleId', VehicleFields>({
  kind: VEHICLE_RECORD,
  path: '/v1/vehicles',
  object: 'vehicle',
  idPrefix: 'veh',
  collection: VEHICLES,
  textField: 'name',
  // The fields of a saved vehicle, from the PackRequest Vehicle schema (Rect inlined so the schema stands alone).
  fields: {
    name: { ...requestName, minLength: 1, description: 'Shown in lists and results; 1–255 characters' },
    ...otherVehicleFields,
    blocked_areas: { ...blockedAreas, items: PACK_REQUEST_SCHEMA.$defs.Rect },
  },
  required: ['name', 'type', 'length', 'width', 'height', 'max_weight'],
  rules: ({ id: _i, vehicle_id: _v, quantity: _q, ...vehicle }, caller) =>
    probeProblems({ vehicles: [vehicle], items: [PROBE_ITEM] }, caller.org.limits.allowedVehicleTypes, 'vehicles'),
  presets: {
    list: VEHICLE_PRESETS,
    find: findPreset,
    readOnlyMessage: (id) =>
      `"${id}" is a preset of the service and cannot be changed or deleted; create your own vehicle instead`,
  },
  docs: {
    one: 'Vehicle',
    many: 'Vehicles',
    recordTitle: 'SavedVehicle',
    recordDescription:
      "A preset (slug id, read-only) or one of the organization's vehicles (veh_…). Optional fields appear only when set.",
    inputDescription:
      "A vehicle to save: the spec's Vehicle fields except id, vehicle_id and quantity. Dimensions are inner " +
      "cargo-space sizes in cm, max_weight the payload in kg; type must be in the organization's allowed_vehicle_types.",
    list: {
      summary: 'List vehicles, presets included',
      description:
        "The organization's vehicles newest first, then the presets in catalog order. `q` matches name or id; `created_by` leaves the presets out.",
    },
    get: { summary: 'Get a vehicle or preset' },
    create: { summary: 'Save a vehicle' },
    update: {
      summary: 'Change a vehicle',
      description: 'The fields sent replace the saved ones; the result is checked as a whole. Presets are read-only.',
    },
    delete: {
      summary: 'Delete a vehicle',
      description: 'Presets are read-only. Pack requests naming a deleted vehicle answer unknown_vehicle.',
    },
  },
});
