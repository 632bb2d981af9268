/**
 * Saved vehicles (spec Endpoints: GET/POST /v1/vehicles, GET/PATCH/DELETE /v1/vehicles/{id};
 * saved data; Deleted). Writes are events on `vehicle-<id>` streams; reads come from the
 * `vehicles` projection and the preset catalog.
 *
 * Record (component `SavedVehicle`; `Vehicle` is the PackRequest's): `{id: 'veh_…', object: 'vehicle', preset: false, name, type, length, width,
 * height, max_weight, <every other Vehicle field of the spec that was set: floor_load_capacity,
 * aux_deck, aux_deck_height, aux_deck_max_weight, blocked_areas, axle_positions, axle_max_loads,
 * cog_range_x, cog_range_y, the semi-trailer fields>, created_at, updated_at, created_by: {id,
 * name}, updated_by: {id, name}}`. Optional fields appear only when set (absent = the spec's
 * default). Presets: `{id: '<slug>', object: 'vehicle', preset: true, name, type, length, width,
 * height, max_weight, created_at: null, updated_at: null, created_by: null, updated_by: null}`.
 *
 * POST body (`VehicleInput`): the spec's Vehicle fields except `id`, `vehicle_id` and `quantity`
 * (request-only); name, type, length, width, height, max_weight required; type within the
 * organization's allowed_vehicle_types (detail `type_not_allowed`); the cross-field rules of a
 * pack request (aux deck, blocked areas on the floor, axle arrays) apply. PATCH (`VehiclePatch`):
 * any subset of the same fields, null not allowed (a wrong type: 400); the merged record is
 * checked again as a whole (422). A PATCH that changes nothing leaves updated_at as it was.
 * DELETE answers `Deleted`. Presets answer 403 preset_read_only to PATCH and DELETE.
 *
 * List: the organization's vehicles newest first, then the presets in catalog order, one cursor
 * across both; `q` matches name or id; `created_by` lists own vehicles only (presets have no
 * creator).
 */
import { Router, type Request } from 'express';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv';
import { handleCommand } from '../../domain/decider/handle.js';
import type { ErrorDetail } from '../../domain/pack/diagnostics.js';
import type { PackRequest, SavedVehicle, VehicleType } from '../../domain/pack/request.js';
import { vehicleDecider, type VehicleRules } from '../../domain/vehicle/decide.js';
import { findPreset, VEHICLE_PRESETS } from '../../domain/vehicle/presets.js';
import { vehicleStream } from '../../domain/vehicle/streams.js';
import type { Actor, VehicleFields } from '../../domain/vehicle/vehicle.js';
import { VEHICLES, type VehicleDocument } from '../../projections/vehicles/projection.js';
import { resolvePackRequest, type ResolveOutcome } from '../../solver/model/resolve.js';
import { PACK_REQUEST_SCHEMA } from '../pack-request/schema.js';
import { actorOf } from '../actor.js';
import { authenticate, callerOf, type Caller } from '../auth.js';
import { jsonBody } from '../body.js';
import { ApiError } from '../errors.js';
import { ref } from '../openapi/components.js';
import { newId } from '../id.js';
import { listPage, matchesText, page, parseListQuery, textSearch } from '../paging.js';
import { ROUTER_OPTIONS, type JsonSchema, type ParameterDoc, type RouteDoc, type RouteModule } from '../route-docs.js';
import {
  distinctProblems,
  LIST_PARAMETERS,
  listSchema,
  META,
  RECORD_META_PROPERTIES,
  recordRuleProblems,
  refuseProblems,
  requireObject,
  schemaProblemsOf,
} from '../saved-record.js';
import type { Services } from '../services.js';

// ---- schemas (one source of truth: ajv compiles these objects, the OpenAPI document shows them)

const { id: _id, vehicle_id: _vehicleId, quantity: _quantity, name: requestName, blocked_areas: blockedAreas, ...otherVehicleFields } =
  PACK_REQUEST_SCHEMA.$defs.Vehicle.properties;

/** The fields of a saved vehicle, from the PackRequest Vehicle schema (Rect inlined so the schema stands alone). */
const VEHICLE_FIELD_PROPERTIES = {
  name: { ...requestName, minLength: 1, description: 'Shown in lists and results; 1–255 characters' },
  ...otherVehicleFields,
  blocked_areas: { ...blockedAreas, items: PACK_REQUEST_SCHEMA.$defs.Rect },
};

const VEHICLE_REQUIRED = ['name', 'type', 'length', 'width', 'height', 'max_weight'];

/** Body of POST /v1/vehicles. */
export const VEHICLE_INPUT_SCHEMA: JsonSchema = {
  title: 'VehicleInput',
  description:
    "A vehicle to save: the spec's Vehicle fields except id, vehicle_id and quantity. Dimensions are inner " +
    "cargo-space sizes in cm, max_weight the payload in kg; type must be in the organization's allowed_vehicle_types.",
  type: 'object',
  additionalProperties: false,
  required: VEHICLE_REQUIRED,
  properties: VEHICLE_FIELD_PROPERTIES,
};

/** Body of PATCH /v1/vehicles/{id}. */
export const VEHICLE_PATCH_SCHEMA: JsonSchema = {
  title: 'VehiclePatch',
  description: 'Any subset of the VehicleInput fields; null is not accepted. The record after the change must be a valid VehicleInput.',
  type: 'object',
  additionalProperties: false,
  properties: VEHICLE_FIELD_PROPERTIES,
};

/** A saved vehicle record (response). */
export const VEHICLE_SCHEMA: JsonSchema = {
  title: 'SavedVehicle',
  description: "A preset (slug id, read-only) or one of the organization's vehicles (veh_…). Optional fields appear only when set.",
  type: 'object',
  required: ['id', 'object', 'preset', ...VEHICLE_REQUIRED, ...META],
  properties: {
    id: { type: 'string', description: 'veh_… or a preset slug' },
    object: { const: 'vehicle' },
    preset: { type: 'boolean', description: 'true for the read-only presets of the service' },
    ...VEHICLE_FIELD_PROPERTIES,
    ...RECORD_META_PROPERTIES,
  },
};

// ---- checking a record

const ajv = new Ajv2020({ allErrors: true, strict: true, verbose: true });
const validateInput = ajv.compile(VEHICLE_INPUT_SCHEMA);
const validatePatch = ajv.compile(VEHICLE_PATCH_SCHEMA);

// A tiny item that fits anything: the probe request only exercises the vehicle rules of resolution.
const PROBE_ITEM = { id: 'probe', length: 0.001, width: 0.001, height: 0.001, weight: 0.000001 };

/**
 * Every problem of a saved vehicle's fields (spec Vehicle rules): the VehicleInput schema, then
 * the rules resolution applies to a vehicle of a pack request (type allowed, aux deck, blocked
 * areas on the floor, axle arrays, cog ranges). Request-only keys are reported as unknown by
 * the schema and kept out of the rule probe.
 */
export function vehicleProblems(fields: Record<string, unknown>, allowedTypes: readonly VehicleType[]): ErrorDetail[] {
  const { id: _i, vehicle_id: _v, quantity: _q, ...rest } = fields;
  const outcome = resolvePackRequest({ vehicles: [rest], items: [PROBE_ITEM], options: { allow_overweight: true } } as unknown as PackRequest, {
    allowedVehicleTypes: allowedTypes,
    maxItemsPerRequest: Number.MAX_SAFE_INTEGER,
    maxVehiclesPerRequest: Number.MAX_SAFE_INTEGER,
    maxTimeLimitSeconds: 90,
    axleAccess: true,
    findVehicle: () => undefined,
    findTemplate: () => undefined,
    seed: 1,
  });
  return distinctProblems(schemaProblemsOf(validateInput, fields), recordRuleProblems(outcome, 'vehicles'));
}

const rulesFor = (caller: Caller): VehicleRules => (fields) => vehicleProblems(fields as Record<string, unknown>, caller.org.limits.allowedVehicleTypes);

// ---- views

const FIELD_ORDER = Object.keys(VEHICLE_FIELD_PROPERTIES);

function fieldsView(fields: object): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of FIELD_ORDER) {
    const v = (fields as Record<string, unknown>)[k];
    if (v !== undefined) out[k] = v;
  }
  return out;
}

interface SavedRecord<F> {
  id: string;
  fields: F;
  createdAt: string;
  updatedAt: string;
  createdBy: Actor;
  updatedBy: Actor;
}

/** The spec-facing record of one of the organization's vehicles. */
export function vehicleView(v: SavedRecord<VehicleFields>): Record<string, unknown> {
  return {
    id: v.id,
    object: 'vehicle',
    preset: false,
    ...fieldsView(v.fields),
    created_at: v.createdAt,
    updated_at: v.updatedAt,
    created_by: v.createdBy,
    updated_by: v.updatedBy,
  };
}

/** The spec-facing record of a preset. */
export function presetView(p: SavedVehicle): Record<string, unknown> {
  const { id, ...fields } = p;
  return { id, object: 'vehicle', preset: true, ...fieldsView(fields), created_at: null, updated_at: null, created_by: null, updated_by: null };
}

// Presets sort after every real timestamp ('0…' < '2…'), in catalog order (the list is newest first).
const presetSortKey = (index: number): string => `0000-preset-${String(VEHICLE_PRESETS.length - index).padStart(4, '0')}`;

const VEHICLE_ID = /^veh_[a-z0-9]+$/;

async function ownVehicle(services: Services, caller: Caller, id: string): Promise<VehicleDocument> {
  const doc = VEHICLE_ID.test(id) ? await services.reads.collection<VehicleDocument>(VEHICLES).get(id) : undefined;
  if (!doc || doc.deleted || doc.orgId !== caller.orgId) throw new ApiError('vehicle_not_found', `no preset or vehicle of the organization has the id "${id}"`);
  return doc;
}

function refusePreset(id: string): void {
  if (findPreset(id)) throw new ApiError('preset_read_only', `"${id}" is a preset of the service and cannot be changed or deleted; create your own vehicle instead`);
}

const idParam = (req: Request): string => String(req.params['id']);

export function vehiclesRouter(services: Services): Router {
  const router = Router(ROUTER_OPTIONS);

  router.get('/v1/vehicles', authenticate(services, 'resources:read'), async (req, res) => {
    const caller = callerOf(res);
    const query = parseListQuery(req.query as Record<string, unknown>, caller);
    const ownPage = await listPage(
      services.reads.collection<VehicleDocument>(VEHICLES),
      {
        where: { orgId: caller.orgId, deleted: false, ...(query.createdBy !== null ? { 'createdBy.id': query.createdBy } : {}) },
        ...textSearch<VehicleDocument>(query.q, ['fields.name', 'id']),
      },
      query,
    );
    // Own vehicles fill this page and more follow: the presets come on later pages.
    if (ownPage.next_cursor !== '') {
      res.json({ data: ownPage.data.map(vehicleView), next_cursor: ownPage.next_cursor });
      return;
    }
    // Every own vehicle after the cursor is here: page them with the presets behind them.
    const own = ownPage.data.map((d) => ({ createdAt: d.createdAt, id: d.id, view: () => vehicleView(d) }));
    const presets = query.createdBy !== null
      ? []
      : VEHICLE_PRESETS.flatMap((p, i) => (matchesText(query.q, p.name, p.id) ? [{ createdAt: presetSortKey(i), id: p.id, view: () => presetView(p) }] : []));
    const { data, next_cursor } = page([...own, ...presets], query);
    res.json({ data: data.map((e) => e.view()), next_cursor });
  });

  router.get('/v1/vehicles/:id', authenticate(services, 'resources:read'), async (req, res) => {
    const caller = callerOf(res);
    const id = idParam(req);
    const preset = findPreset(id);
    res.json(preset ? presetView(preset) : vehicleView(await ownVehicle(services, caller, id)));
  });

  router.post('/v1/vehicles', authenticate(services, 'resources:write'), async (req, res) => {
    const caller = callerOf(res);
    const body = requireObject(jsonBody(req));
    refuseProblems(vehicleProblems(body, caller.org.limits.allowedVehicleTypes), 'vehicle');
    const vehicleId = newId('veh');
    const done = await handleCommand(services.store, vehicleStream(vehicleId), vehicleDecider(rulesFor(caller)), {
      type: 'CreateVehicle',
      vehicleId,
      orgId: caller.orgId,
      fields: body as unknown as VehicleFields,
      actor: actorOf(caller),
      now: services.clock(),
    });
    await services.projections.waitFor(done.position);
    res.status(201).json(vehicleView(done.state as SavedRecord<VehicleFields>));
  });

  router.patch('/v1/vehicles/:id', authenticate(services, 'resources:write'), async (req, res) => {
    const caller = callerOf(res);
    const id = idParam(req);
    refusePreset(id);
    await ownVehicle(services, caller, id);
    const body = requireObject(jsonBody(req));
    refuseProblems(schemaProblemsOf(validatePatch, body), 'vehicle');
    const done = await handleCommand(services.store, vehicleStream(id), vehicleDecider(rulesFor(caller)), {
      type: 'UpdateVehicle',
      vehicleId: id,
      orgId: caller.orgId,
      patch: body as Partial<VehicleFields>,
      actor: actorOf(caller),
      now: services.clock(),
    });
    await services.projections.waitFor(done.position);
    res.json(vehicleView(done.state as SavedRecord<VehicleFields>));
  });

  router.delete('/v1/vehicles/:id', authenticate(services, 'resources:write'), async (req, res) => {
    const caller = callerOf(res);
    const id = idParam(req);
    refusePreset(id);
    await ownVehicle(services, caller, id);
    const done = await handleCommand(services.store, vehicleStream(id), vehicleDecider(rulesFor(caller)), {
      type: 'DeleteVehicle',
      vehicleId: id,
      orgId: caller.orgId,
      actor: actorOf(caller),
      now: services.clock(),
    });
    await services.projections.waitFor(done.position);
    res.json({ id, object: 'vehicle', deleted: true });
  });

  return router;
}

const ID_PARAMETER: ParameterDoc = { name: 'id', in: 'path', required: true, description: 'veh_… or a preset slug', schema: { type: 'string' } };

const DOCS: RouteDoc[] = [
  {
    method: 'get',
    path: '/v1/vehicles',
    operationId: 'listVehicles',
    summary: 'List vehicles, presets included',
    description: "The organization's vehicles newest first, then the presets in catalog order. `q` matches name or id; `created_by` leaves the presets out.",
    tags: ['Vehicles'],
    scopes: ['resources:read'],
    parameters: LIST_PARAMETERS,
    responses: { '200': { description: 'A page of vehicles', schema: ref('VehicleList') } },
    errors: ['validation_failed'],
  },
  {
    method: 'get',
    path: '/v1/vehicles/{id}',
    operationId: 'getVehicle',
    summary: 'Get a vehicle or preset',
    tags: ['Vehicles'],
    scopes: ['resources:read'],
    parameters: [ID_PARAMETER],
    responses: { '200': { description: 'The vehicle', schema: ref('SavedVehicle') } },
    errors: ['vehicle_not_found'],
  },
  {
    method: 'post',
    path: '/v1/vehicles',
    operationId: 'createVehicle',
    summary: 'Save a vehicle',
    tags: ['Vehicles'],
    scopes: ['resources:write'],
    requestBody: { description: 'The vehicle', schema: ref('VehicleInput'), required: true },
    responses: { '201': { description: 'The saved vehicle', schema: ref('SavedVehicle') } },
    errors: ['invalid_json', 'validation_failed', 'payload_too_large'],
  },
  {
    method: 'patch',
    path: '/v1/vehicles/{id}',
    operationId: 'updateVehicle',
    summary: 'Change a vehicle',
    description: 'The fields sent replace the saved ones; the result is checked as a whole. Presets are read-only.',
    tags: ['Vehicles'],
    scopes: ['resources:write'],
    parameters: [ID_PARAMETER],
    requestBody: { description: 'The fields to change', schema: ref('VehiclePatch'), required: true },
    responses: { '200': { description: 'The vehicle after the change', schema: ref('SavedVehicle') } },
    errors: ['invalid_json', 'validation_failed', 'preset_read_only', 'vehicle_not_found', 'payload_too_large'],
  },
  {
    method: 'delete',
    path: '/v1/vehicles/{id}',
    operationId: 'deleteVehicle',
    summary: 'Delete a vehicle',
    description: 'Presets are read-only. Pack requests naming a deleted vehicle answer unknown_vehicle.',
    tags: ['Vehicles'],
    scopes: ['resources:write'],
    parameters: [ID_PARAMETER],
    responses: { '200': { description: 'Deleted', schema: ref('Deleted') } },
    errors: ['preset_read_only', 'vehicle_not_found'],
  },
];

/** Route module: router, OpenAPI docs and the component schemas SavedVehicle, VehicleInput, VehiclePatch, VehicleList (Deleted is shared: api/openapi/components.ts). */
export const vehiclesRoutes: RouteModule = {
  router: vehiclesRouter,
  docs: DOCS,
  schemas: {
    SavedVehicle: VEHICLE_SCHEMA,
    VehicleInput: VEHICLE_INPUT_SCHEMA,
    VehiclePatch: VEHICLE_PATCH_SCHEMA,
    VehicleList: listSchema('VehicleList', 'SavedVehicle'),
  },
};
