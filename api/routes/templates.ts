/**
 * Saved cargo templates (spec Endpoints: GET/POST /v1/templates, GET/PATCH/DELETE
 * /v1/templates/{id}; saved data; Deleted; Item `template_id`). Writes are events on
 * `template-<id>` streams; reads come from the `templates` projection.
 *
 * Record (`Template`): `{id: 'tpl_…', object: 'template', label, <every other Item field of the
 * spec that was set: shape, length, width, height, radius, weight, quantity, stackable,
 * max_stack_weight, rotation, hazardous, priority, group, color, nesting_height>, created_at,
 * updated_at, created_by: {id, name}, updated_by: {id, name}}`. Optional fields appear only
 * when set. `quantity` is the default quantity of items made from the template (the item's own
 * `quantity` overrides it, like every field sent beside `template_id`).
 *
 * POST body (`TemplateInput`): the pack item shape without `id` and `template_id`; `label`,
 * `height` and `weight` required, `length` and `width` unless the shape is cylinder or drum,
 * which need `radius`; `nesting_height` below `height`. PATCH (`TemplatePatch`): any subset,
 * null not accepted; the merged record is checked again as a whole. DELETE answers `Deleted`.
 * Creating a template beyond the plan's cap (`max_saved_items` of GET /v1/limits) answers 403
 * plan_limit_reached; the body is validated first.
 *
 * List: newest first; `q` matches label or id; `created_by` filters by creator.
 */
import { Router, type Request } from 'express';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { handleCommand } from '../../domain/decider/handle.js';
import type { ErrorDetail } from '../../domain/pack/diagnostics.js';
import type { PackRequest } from '../../domain/pack/request.js';
import { DEFAULT_LIMITS } from '../../domain/organization/limits.js';
import { templateDecider, type TemplateRules } from '../../domain/template/decide.js';
import { templateStream } from '../../domain/template/streams.js';
import type { Actor, TemplateFields } from '../../domain/template/template.js';
import { TEMPLATES, type TemplateDocument } from '../../projections/templates/projection.js';
import { resolvePackRequest } from '../../solver/model/resolve.js';
import { MAX_DIMENSION_CM, MAX_WEIGHT_KG, PACK_REQUEST_SCHEMA } from '../pack-request/schema.js';
import { actorOf } from '../actor.js';
import { authenticate, callerOf, type Caller } from '../auth.js';
import { jsonBody } from '../body.js';
import { ApiError } from '../errors.js';
import { ref } from '../openapi/components.js';
import { newId } from '../id.js';
import { listPage, parseListQuery, textSearch } from '../paging.js';
import { ROUTER_OPTIONS, type JsonSchema, type ParameterDoc, type RouteDoc, type RouteModule } from '../route-docs.js';
import type { Services } from '../services.js';
import {
  distinctProblems,
  LIST_PARAMETERS,
  listSchema,
  RECORD_META_PROPERTIES,
  recordRuleProblems,
  refuseProblems,
  requireObject,
  schemaProblemsOf,
} from '../saved-record.js';

// ---- schemas (one source of truth: ajv compiles these objects, the OpenAPI document shows them)

const { id: _id, template_id: _templateId, label: requestLabel, quantity: requestQuantity, ...otherItemFields } = PACK_REQUEST_SCHEMA.$defs.Item.properties;

/** The fields of a template, from the PackRequest Item schema. */
const TEMPLATE_FIELD_PROPERTIES = {
  label: { ...requestLabel, minLength: 1, description: 'Shown in lists, results and the PDF; 1–255 characters' },
  ...otherItemFields,
  quantity: { ...requestQuantity, description: 'Default quantity of items made from the template (1–10000); the item may override it' },
};

const TEMPLATE_REQUIRED = ['label', 'height', 'weight'];

/** Body of POST /v1/templates. */
export const TEMPLATE_INPUT_SCHEMA: JsonSchema = {
  title: 'TemplateInput',
  description:
    'A cargo item to save, in the pack item shape without id and template_id. Sizes are outer package sizes in cm, ' +
    'weight is one unit in kg. length and width are required unless the shape is cylinder or drum, which need radius.',
  type: 'object',
  additionalProperties: false,
  required: TEMPLATE_REQUIRED,
  properties: TEMPLATE_FIELD_PROPERTIES,
};

/** Body of PATCH /v1/templates/{id}. */
export const TEMPLATE_PATCH_SCHEMA: JsonSchema = {
  title: 'TemplatePatch',
  description: 'Any subset of the TemplateInput fields; null is not accepted. The record after the change must be a valid TemplateInput.',
  type: 'object',
  additionalProperties: false,
  properties: TEMPLATE_FIELD_PROPERTIES,
};

/** A template record (response). */
export const TEMPLATE_SCHEMA: JsonSchema = {
  title: 'Template',
  description: "One of the organization's cargo templates. Optional fields appear only when set.",
  type: 'object',
  required: ['id', 'object', ...TEMPLATE_REQUIRED, 'created_at', 'updated_at', 'created_by', 'updated_by'],
  properties: {
    id: { type: 'string', description: 'tpl_…' },
    object: { const: 'template' },
    ...TEMPLATE_FIELD_PROPERTIES,
    ...RECORD_META_PROPERTIES,
  },
};

// ---- checking a record

const ajv = new Ajv2020({ allErrors: true, strict: true, verbose: true });
const validateInput = ajv.compile(TEMPLATE_INPUT_SCHEMA);
const validatePatch = ajv.compile(TEMPLATE_PATCH_SCHEMA);

// The largest vehicle the schema allows, so the probe request only exercises the item rules of resolution.
const PROBE_VEHICLE = { id: 'probe', type: 'truck', length: MAX_DIMENSION_CM, width: MAX_DIMENSION_CM, height: MAX_DIMENSION_CM, max_weight: MAX_WEIGHT_KG };

/**
 * Every problem of a template's fields (spec Item rules): the TemplateInput schema, then the
 * rules resolution applies to an item of a pack request (length/width or radius by shape,
 * nesting_height below height). Request-only keys are reported as unknown by the schema and
 * kept out of the rule probe.
 */
export function templateProblems(fields: Record<string, unknown>): ErrorDetail[] {
  const { id: _i, template_id: _t, ...rest } = fields;
  const outcome = resolvePackRequest({ vehicles: [PROBE_VEHICLE], items: [rest], options: { allow_overweight: true } } as unknown as PackRequest, {
    allowedVehicleTypes: ['truck'],
    maxItemsPerRequest: Number.MAX_SAFE_INTEGER,
    maxVehiclesPerRequest: Number.MAX_SAFE_INTEGER,
    maxTimeLimitSeconds: 90,
    axleAccess: true,
    findVehicle: () => undefined,
    findTemplate: () => undefined,
    seed: 1,
  });
  return distinctProblems(schemaProblemsOf(validateInput, fields), recordRuleProblems(outcome, 'items'));
}

const rules: TemplateRules = (fields) => templateProblems(fields as unknown as Record<string, unknown>);
const decider = templateDecider(rules);

// ---- views

const FIELD_ORDER = Object.keys(TEMPLATE_FIELD_PROPERTIES);

interface SavedRecord {
  id: string;
  fields: TemplateFields;
  createdAt: string;
  updatedAt: string;
  createdBy: Actor;
  updatedBy: Actor;
}

/** The spec-facing record of a template. */
export function templateView(t: SavedRecord): Record<string, unknown> {
  const out: Record<string, unknown> = { id: t.id, object: 'template' };
  for (const k of FIELD_ORDER) {
    const v = (t.fields as Record<string, unknown>)[k];
    if (v !== undefined) out[k] = v;
  }
  return { ...out, created_at: t.createdAt, updated_at: t.updatedAt, created_by: t.createdBy, updated_by: t.updatedBy };
}

const TEMPLATE_ID = /^tpl_[a-z0-9]+$/;

async function ownTemplate(services: Services, caller: Caller, id: string): Promise<TemplateDocument> {
  const doc = TEMPLATE_ID.test(id) ? await services.reads.collection<TemplateDocument>(TEMPLATES).get(id) : undefined;
  if (!doc || doc.deleted || doc.orgId !== caller.orgId) throw new ApiError('template_not_found', `no template of the organization has the id "${id}"`);
  return doc;
}

const idParam = (req: Request): string => String(req.params['id']);

export function templatesRouter(services: Services): Router {
  const router = Router(ROUTER_OPTIONS);
  const collection = () => services.reads.collection<TemplateDocument>(TEMPLATES);

  router.get('/v1/templates', authenticate(services, 'resources:read'), async (req, res) => {
    const caller = callerOf(res);
    const query = parseListQuery(req.query as Record<string, unknown>, caller);
    const { data, next_cursor } = await listPage(
      collection(),
      {
        where: { orgId: caller.orgId, deleted: false, ...(query.createdBy !== null ? { 'createdBy.id': query.createdBy } : {}) },
        ...textSearch<TemplateDocument>(query.q, ['fields.label', 'id']),
      },
      query,
    );
    res.json({ data: data.map(templateView), next_cursor });
  });

  router.get('/v1/templates/:id', authenticate(services, 'resources:read'), async (req, res) => {
    res.json(templateView(await ownTemplate(services, callerOf(res), idParam(req))));
  });

  router.post('/v1/templates', authenticate(services, 'resources:write'), async (req, res) => {
    const caller = callerOf(res);
    const body = requireObject(jsonBody(req));
    refuseProblems(templateProblems(body), 'template');
    // Counted on the read model: two creations racing at the cap can both pass and overshoot it
    // by one. Acceptable for a plan cap; exactness would need a per-organization counter stream.
    const cap = caller.org.limits.maxTemplates ?? DEFAULT_LIMITS.maxTemplates;
    const held = await collection().count({ where: { orgId: caller.orgId, deleted: false } });
    if (held >= cap) {
      throw new ApiError('plan_limit_reached', `the plan allows ${cap} saved cargo items (templates) and the organization holds ${held}; delete one or upgrade the plan`);
    }
    const templateId = newId('tpl');
    const done = await handleCommand(services.store, templateStream(templateId), decider, {
      type: 'CreateTemplate',
      templateId,
      orgId: caller.orgId,
      fields: body as unknown as TemplateFields,
      actor: actorOf(caller),
      now: services.clock(),
    });
    await services.projections.waitFor(done.position);
    res.status(201).json(templateView(done.state as unknown as SavedRecord));
  });

  router.patch('/v1/templates/:id', authenticate(services, 'resources:write'), async (req, res) => {
    const caller = callerOf(res);
    const id = idParam(req);
    await ownTemplate(services, caller, id);
    const body = requireObject(jsonBody(req));
    refuseProblems(schemaProblemsOf(validatePatch, body), 'template');
    const done = await handleCommand(services.store, templateStream(id), decider, {
      type: 'UpdateTemplate',
      templateId: id,
      orgId: caller.orgId,
      patch: body as Partial<TemplateFields>,
      actor: actorOf(caller),
      now: services.clock(),
    });
    await services.projections.waitFor(done.position);
    res.json(templateView(done.state as unknown as SavedRecord));
  });

  router.delete('/v1/templates/:id', authenticate(services, 'resources:write'), async (req, res) => {
    const caller = callerOf(res);
    const id = idParam(req);
    await ownTemplate(services, caller, id);
    const done = await handleCommand(services.store, templateStream(id), decider, {
      type: 'DeleteTemplate',
      templateId: id,
      orgId: caller.orgId,
      actor: actorOf(caller),
      now: services.clock(),
    });
    await services.projections.waitFor(done.position);
    res.json({ id, object: 'template', deleted: true });
  });

  return router;
}

const ID_PARAMETER: ParameterDoc = { name: 'id', in: 'path', required: true, description: 'tpl_…', schema: { type: 'string' } };

const DOCS: RouteDoc[] = [
  {
    method: 'get',
    path: '/v1/templates',
    operationId: 'listTemplates',
    summary: 'List cargo templates',
    description: 'Newest first. `q` matches label or id.',
    tags: ['Templates'],
    scopes: ['resources:read'],
    parameters: LIST_PARAMETERS,
    responses: { '200': { description: 'A page of templates', schema: ref('TemplateList') } },
    errors: ['validation_failed'],
  },
  {
    method: 'get',
    path: '/v1/templates/{id}',
    operationId: 'getTemplate',
    summary: 'Get a cargo template',
    tags: ['Templates'],
    scopes: ['resources:read'],
    parameters: [ID_PARAMETER],
    responses: { '200': { description: 'The template', schema: ref('Template') } },
    errors: ['template_not_found'],
  },
  {
    method: 'post',
    path: '/v1/templates',
    operationId: 'createTemplate',
    summary: 'Save a cargo template',
    description: "403 plan_limit_reached when the organization already holds its plan's max_saved_items templates.",
    tags: ['Templates'],
    scopes: ['resources:write'],
    requestBody: { description: 'The template', schema: ref('TemplateInput'), required: true },
    responses: { '201': { description: 'The saved template', schema: ref('Template') } },
    errors: ['invalid_json', 'validation_failed', 'plan_limit_reached', 'payload_too_large'],
  },
  {
    method: 'patch',
    path: '/v1/templates/{id}',
    operationId: 'updateTemplate',
    summary: 'Change a cargo template',
    description: 'The fields sent replace the saved ones; the result is checked as a whole.',
    tags: ['Templates'],
    scopes: ['resources:write'],
    parameters: [ID_PARAMETER],
    requestBody: { description: 'The fields to change', schema: ref('TemplatePatch'), required: true },
    responses: { '200': { description: 'The template after the change', schema: ref('Template') } },
    errors: ['invalid_json', 'validation_failed', 'template_not_found', 'payload_too_large'],
  },
  {
    method: 'delete',
    path: '/v1/templates/{id}',
    operationId: 'deleteTemplate',
    summary: 'Delete a cargo template',
    description: 'Pack requests naming a deleted template answer unknown_template.',
    tags: ['Templates'],
    scopes: ['resources:write'],
    parameters: [ID_PARAMETER],
    responses: { '200': { description: 'Deleted', schema: ref('Deleted') } },
    errors: ['template_not_found'],
  },
];

/** Route module: router, OpenAPI docs and the component schemas Template, TemplateInput, TemplatePatch, TemplateList (Deleted is shared: api/openapi/components.ts). */
export const templatesRoutes: RouteModule = {
  router: templatesRouter,
  docs: DOCS,
  schemas: {
    Template: TEMPLATE_SCHEMA,
    TemplateInput: TEMPLATE_INPUT_SCHEMA,
    TemplatePatch: TEMPLATE_PATCH_SCHEMA,
    TemplateList: listSchema('TemplateList', 'Template'),
  },
};
