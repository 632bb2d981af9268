/**
 * Projects (spec Endpoints: GET/POST /v1/projects, GET/PATCH/DELETE /v1/projects/{id},
 * POST /v1/projects/{id}/pack; saved data; Deleted). Writes are events on `project-<id>`
 * streams (domain/project); reads come from the `projects` projection; the saved plan is read
 * from its job's body stream.
 *
 * Record (`Project`): `{id: 'prj_…', object: 'project', name, vehicles: [{id: 'pv_…', vehicle_id,
 * quantity, <Vehicle fields overriding the saved vehicle>}], items: [{id: 'item_…', <pack Item
 * fields, template_id allowed>}], groups: Group[], options: Options, plan: Result | null (only in
 * GET /v1/projects/{id}), plan_job_id, plan_summary, plan_saved_at, pdf_url, packing, created_at,
 * updated_at, created_by: {id, name}, updated_by: {id, name}}`.
 * - `plan` is the Result of the last project pack that was saved (its vehicles name slots
 *   `pv_…`, its placements items `item_…`); null before the first save and after that job's
 *   `expires_at` (its bodies are deleted then). `pdf_url` is its signed PDF link, "" when none.
 * - `packing` is the job id of the pack in progress, else null.
 *
 * POST body (`ProjectInput`): `name` (required), `vehicles`, `items` (default []), `groups`
 * (default []), `options` (default {}). Only the shape and the saved records named are checked
 * on write (`unknown_vehicle`, `unknown_template`); the whole pack rules apply when packing, so a
 * draft may be incomplete. PATCH (`ProjectPatch`): the fields given replace the stored ones
 * (lists whole). In both, an entry sent with the `id` of one of the project's current slots or
 * items keeps that id; an entry without `id` gets a new one; any other id is `invalid_value`.
 * A PATCH that changes nothing writes nothing. DELETE answers `Deleted`. Creating a project
 * beyond the plan's cap (`max_projects` of GET /v1/limits) answers 403 plan_limit_reached (the
 * body is checked first).
 *
 * POST /v1/projects/{id}/pack takes no body: the project is the request. It answers like
 * POST /v1/pack (Job, 202, or 200 with `?wait=`), the job carries `project_id`; 409
 * project_busy while a pack of the project is in progress; 422 when the project is not a valid
 * job (paths point into the project: `items[2].length`).
 *
 * List: newest first; `q` matches name or id; `created_by` filters by creator; `plan` left out.
 */
import { createHash } from 'node:crypto';
import { Router, type Request } from 'express';
import { Ajv2020 } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import { handleCommand, loadState } from '../../domain/decider/handle.js';
import type { ErrorDetail } from '../../domain/pack/diagnostics.js';
import type { GroupInput, OptionsInput, PackRequest } from '../../domain/pack/request.js';
import { projectDecider } from '../../domain/project/decide.js';
import { projectPackRequest } from '../../domain/project/pack-request.js';
import type { ProjectContent, ProjectItem, ProjectVehicle } from '../../domain/project/project.js';
import { assignIds } from '../../domain/project/slots.js';
import { projectStream } from '../../domain/project/streams.js';
import { JOBS, type JobDocument } from '../../projections/jobs/job-document.js';
import { PROJECTS, type ProjectDocument } from '../../projections/projects/project-document.js';
import { checkPackRequest, type CheckContext } from '../pack-request/check.js';
import { PACK_REQUEST_SCHEMA } from '../pack-request/schema.js';
import type { CheckedRequest } from '../job-admission.js';
import { actorOf } from '../actor.js';
import { authenticate, callerOf, type Caller } from '../auth.js';
import { jsonBody } from '../body.js';
import { checkContextFor } from '../check-context.js';
import { ApiError } from '../errors.js';
import { newId } from '../id.js';
import { createJob, IDEMPOTENCY_WINDOW_MS, idempotencyKeyOf } from '../job-admission.js';
import { baseUrl, resultView, sendCreatedJob } from '../job-view.js';
import { liftDefs, ref } from '../openapi/components.js';
import { listPage, parseListQuery, textSearch } from '../paging.js';
import { signedPdfPath } from '../pdf-link.js';
import { waitParam } from '../query.js';
import { ROUTER_OPTIONS, type JsonSchema, type ParameterDoc, type RouteDoc, type RouteModule } from '../route-docs.js';
import type { Services } from '../services.js';
import { distinctProblems, LIST_PARAMETERS, listSchema, refuseProblems, requireObject, schemaProblemsOf } from '../saved-record.js';

// ---- schemas (one source of truth: ajv compiles these objects, the OpenAPI document shows them)

/** Most vehicle slots and item definitions a project holds (storage bounds; a pack applies the plan's own limits). */
export const MAX_PROJECT_SLOTS = 100;
export const MAX_PROJECT_ITEMS = 2000;
const MAX_PROJECT_GROUPS = 1000;

const { Vehicle, Item } = PACK_REQUEST_SCHEMA.$defs;
const idOf = (prefix: string, what: string): JsonSchema => ({
  type: 'string',
  minLength: 1,
  maxLength: 128,
  description: `${prefix}… given by the service; send it back on PATCH to keep this ${what}, leave it out for a new one`,
});

/** A vehicle slot: the PackRequest Vehicle with `vehicle_id` required and a `pv_…` id. */
export const PROJECT_VEHICLE_SCHEMA: JsonSchema = {
  ...(liftDefs(Vehicle) as JsonSchema),
  title: 'ProjectVehicle',
  description:
    'A vehicle slot of a project: `vehicle_id` names a preset or one of the organization\'s vehicles; `quantity` (default 1) ' +
    'and any other Vehicle field sent beside it override the saved vehicle. Results of project jobs name the slot id (`pv_…`).',
  required: ['vehicle_id'],
  properties: { ...(liftDefs(Vehicle.properties) as Record<string, JsonSchema>), id: idOf('pv_', 'slot') },
};

/** An item of a project: the PackRequest Item (template_id allowed) with an `item_…` id. */
export const PROJECT_ITEM_SCHEMA: JsonSchema = {
  ...(liftDefs(Item) as JsonSchema),
  title: 'ProjectItem',
  description: 'An item definition of a project in the pack item shape (`template_id` supplies every field, fields beside it override). Results of project jobs name the item id (`item_…`).',
  properties: { ...(liftDefs(Item.properties) as Record<string, JsonSchema>), id: idOf('item_', 'item') },
};

const CONTENT_PROPERTIES: Record<string, JsonSchema> = {
  name: { type: 'string', minLength: 1, maxLength: 255, description: 'Shown in lists; 1–255 characters' },
  vehicles: { type: 'array', maxItems: MAX_PROJECT_SLOTS, items: ref('ProjectVehicle'), description: `Vehicle slots (at most ${MAX_PROJECT_SLOTS}); a pack needs at least one` },
  items: { type: 'array', maxItems: MAX_PROJECT_ITEMS, items: ref('ProjectItem'), description: `Item definitions (at most ${MAX_PROJECT_ITEMS}); a pack needs at least one` },
  groups: { type: 'array', maxItems: MAX_PROJECT_GROUPS, items: ref('Group'), description: 'Groups as in a PackRequest' },
  options: ref('Options'),
};

/** Body of POST /v1/projects. */
export const PROJECT_INPUT_SCHEMA: JsonSchema = {
  title: 'ProjectInput',
  description: 'A new project. `vehicles`, `items` and `groups` default to [], `options` to {}. Entries carry no `id`: the service gives `pv_…` / `item_…` ids.',
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: CONTENT_PROPERTIES,
};

/** Body of PATCH /v1/projects/{id}. */
export const PROJECT_PATCH_SCHEMA: JsonSchema = {
  title: 'ProjectPatch',
  description:
    'The fields given replace the stored ones; lists are replaced whole. An entry with the `id` of a current slot or item keeps it; ' +
    'an entry without `id` gets a new one.',
  type: 'object',
  additionalProperties: false,
  properties: CONTENT_PROPERTIES,
};

const actor = (description: string): JsonSchema => ({
  type: 'object',
  required: ['id', 'name'],
  properties: { id: { type: 'string', description: 'Member id (usr_…)' }, name: { type: 'string' } },
  description,
});

/** A project record (response). */
export const PROJECT_SCHEMA: JsonSchema = {
  title: 'Project',
  description: 'A saved project: vehicle slots, items, groups, options, and its last saved plan.',
  type: 'object',
  required: [
    'id', 'object', 'name', 'vehicles', 'items', 'groups', 'options', 'plan_job_id', 'plan_summary', 'plan_saved_at', 'pdf_url', 'packing',
    'created_at', 'updated_at', 'created_by', 'updated_by',
  ],
  properties: {
    id: { type: 'string', description: 'prj_…' },
    object: { const: 'project' },
    name: { type: 'string' },
    vehicles: { type: 'array', items: { allOf: [ref('ProjectVehicle'), { type: 'object', required: ['id', 'quantity'] }] } },
    items: { type: 'array', items: { allOf: [ref('ProjectItem'), { type: 'object', required: ['id'] }] } },
    groups: { type: 'array', items: ref('Group') },
    options: ref('Options'),
    plan: {
      oneOf: [ref('Result'), { type: 'null' }],
      description: 'Result of the last saved project pack (pv_… / item_… ids); null before the first save and after that job expired. Only in GET /v1/projects/{id}',
    },
    plan_job_id: { type: ['string', 'null'], description: 'Job whose plan was saved last, or null' },
    plan_summary: {
      type: ['object', 'null'],
      required: ['items_placed', 'items_unplaced', 'vehicles_used', 'total_weight', 'volume_utilization'],
      properties: {
        items_placed: { type: 'integer' },
        items_unplaced: { type: 'integer' },
        vehicles_used: { type: 'integer' },
        total_weight: { type: 'number', description: 'kg' },
        volume_utilization: { type: 'number', description: '0–1' },
      },
      description: 'Summary of the saved plan, or null',
    },
    plan_saved_at: { type: ['string', 'null'], format: 'date-time', description: 'When the plan was saved' },
    pdf_url: { type: 'string', description: 'Signed browser link of the saved plan\'s PDF; "" when there is none or after its job\'s expires_at' },
    packing: { type: ['string', 'null'], description: 'Job id of the pack in progress, else null' },
    created_at: { type: 'string', format: 'date-time' },
    updated_at: { type: 'string', format: 'date-time' },
    created_by: actor('Member whose API key created it'),
    updated_by: actor('Member whose API key changed it last'),
  },
};

// ---- checking a body

/** `#/components/schemas/X` → `#/$defs/X`: the same schemas as one self-contained document for ajv. */
const lowerRefs = (schema: JsonSchema): JsonSchema => JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', '"#/$defs/')) as JsonSchema;
const DEFS = {
  $defs: {
    ...PACK_REQUEST_SCHEMA.$defs,
    ProjectVehicle: lowerRefs(PROJECT_VEHICLE_SCHEMA),
    ProjectItem: lowerRefs(PROJECT_ITEM_SCHEMA),
  },
};
const ajv = new Ajv2020({ allErrors: true, strict: true, verbose: true });
ajvFormats.default(ajv);
const validateInput = ajv.compile({ ...lowerRefs(PROJECT_INPUT_SCHEMA), ...DEFS });
const validatePatch = ajv.compile({ ...lowerRefs(PROJECT_PATCH_SCHEMA), ...DEFS });

/**
 * The content fields of a schema-valid body with ids assigned, or throws 422 with every problem:
 * ids (see domain/project/slots.ts) and saved records named (`unknown_vehicle`, `unknown_template`).
 */
async function contentOf(
  services: Services,
  caller: Caller,
  body: Record<string, unknown>,
  current: Pick<ProjectContent, 'vehicles' | 'items'> | null,
): Promise<Partial<ProjectContent>> {
  const out: Partial<ProjectContent> = {};
  const problems: ErrorDetail[] = [];
  if (typeof body['name'] === 'string') out.name = body['name'];
  if (Array.isArray(body['vehicles'])) {
    const slots = assignIds('vehicles', body['vehicles'] as ProjectVehicle[], new Set(current?.vehicles.map((v) => v.id)), () => newId('pv'));
    if (slots.ok) out.vehicles = slots.entries.map((v) => ({ ...v, quantity: v.quantity ?? 1 }));
    else for (const d of slots.details) problems.push(d);
  }
  if (Array.isArray(body['items'])) {
    const items = assignIds('items', body['items'] as ProjectItem[], new Set(current?.items.map((i) => i.id)), () => newId('item'));
    if (items.ok) out.items = items.entries;
    else for (const d of items.details) problems.push(d);
  }
  if (Array.isArray(body['groups'])) out.groups = body['groups'] as GroupInput[];
  if (body['options'] !== undefined) out.options = body['options'] as OptionsInput;
  const ctx = await checkContextFor(services, caller, body);
  (body['vehicles'] as ProjectVehicle[] | undefined)?.forEach((v, i) => {
    if (!ctx.findVehicle(v.vehicle_id)) problems.push({ path: `vehicles[${i}].vehicle_id`, code: 'unknown_vehicle', message: `no preset or own vehicle has the id "${v.vehicle_id}"` });
  });
  (body['items'] as ProjectItem[] | undefined)?.forEach((item, i) => {
    const tid = item.template_id;
    if (tid !== undefined && !ctx.findTemplate(tid)) problems.push({ path: `items[${i}].template_id`, code: 'unknown_template', message: `no template of the organization has the id "${tid}"` });
  });
  refuseProblems(distinctProblems(problems), 'project');
  return out;
}

// ---- views

const idParam = (req: Request): string => String(req.params['id']);

async function ownProject(services: Services, caller: Caller, id: string): Promise<ProjectDocument> {
  const doc = await services.reads.collection<ProjectDocument>(PROJECTS).get(id);
  if (!doc || doc.orgId !== caller.orgId) throw new ApiError('project_not_found', `no project ${id} in this organization`);
  return doc;
}

/** The Project record; `withPlan` reads the saved plan (GET one), lists leave it out. */
async function projectView(services: Services, req: Request, doc: ProjectDocument, withPlan: boolean): Promise<Record<string, unknown>> {
  const saved = doc.plan;
  const live = saved !== null && services.clock() < saved.expiresAt;
  const view: Record<string, unknown> = { id: doc.id, object: 'project', name: doc.name, vehicles: doc.vehicles, items: doc.items, groups: doc.groups, options: doc.options };
  if (withPlan) {
    const job = live ? await services.reads.collection<JobDocument>(JOBS).get(saved.jobId) : undefined;
    view['plan'] = job ? await resultView(services, req, job) : null;
  }
  return {
    ...view,
    plan_job_id: saved?.jobId ?? null,
    plan_summary: saved?.summary ?? null,
    plan_saved_at: saved?.savedAt ?? null,
    pdf_url: live ? baseUrl(services, req) + signedPdfPath(services.signingKey, saved.jobId, saved.expiresAt) : '',
    packing: doc.packingJobId,
    created_at: doc.createdAt,
    updated_at: doc.updatedAt,
    created_by: doc.createdBy,
    updated_by: doc.updatedBy,
  };
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

export function projectsRouter(services: Services): Router {
  const router = Router(ROUTER_OPTIONS);
  const projects = services.reads.collection<ProjectDocument>(PROJECTS);

  router.get('/v1/projects', authenticate(services, 'resources:read'), async (req, res) => {
    const caller = callerOf(res);
    const query = parseListQuery(req.query as Record<string, unknown>, caller);
    const { data, next_cursor } = await listPage(
      projects,
      {
        where: { orgId: caller.orgId, ...(query.createdBy !== null ? { createdById: query.createdBy } : {}) },
        ...textSearch<ProjectDocument>(query.q, ['name', 'id']),
      },
      query,
    );
    res.json({ data: await Promise.all(data.map((d) => projectView(services, req, d, false))), next_cursor });
  });

  router.get('/v1/projects/:id', authenticate(services, 'resources:read'), async (req, res) => {
    res.json(await projectView(services, req, await ownProject(services, callerOf(res), idParam(req)), true));
  });

  router.post('/v1/projects', authenticate(services, 'resources:write'), async (req, res) => {
    const caller = callerOf(res);
    const body = requireObject(jsonBody(req));
    refuseProblems(schemaProblemsOf(validateInput, body), 'project');
    const content = await contentOf(services, caller, body, null);
    const max = caller.org.limits.maxProjects;
    // A soft cap: read-model count, so two creations racing at the cap may both pass.
    if ((await projects.count({ where: { orgId: caller.orgId } })) >= max) {
      throw new ApiError('plan_limit_reached', `the organization's plan allows ${max} projects; delete one or upgrade the plan`);
    }
    const projectId = newId('prj');
    const done = await handleCommand(services.store, projectStream(projectId), projectDecider, {
      type: 'CreateProject',
      projectId,
      orgId: caller.orgId,
      content: { name: content.name!, vehicles: content.vehicles ?? [], items: content.items ?? [], groups: content.groups ?? [], options: content.options ?? {} },
      by: actorOf(caller),
      now: services.clock(),
    });
    await services.projections.waitFor(done.position);
    res.status(201).json(await projectView(services, req, await ownProject(services, caller, projectId), true));
  });

  router.patch('/v1/projects/:id', authenticate(services, 'resources:write'), async (req, res) => {
    const caller = callerOf(res);
    const id = idParam(req);
    const current = await ownProject(services, caller, id);
    const body = requireObject(jsonBody(req));
    refuseProblems(schemaProblemsOf(validatePatch, body), 'project');
    const changes = await contentOf(services, caller, body, current);
    const done = await handleCommand(services.store, projectStream(id), projectDecider, {
      type: 'UpdateProject',
      projectId: id,
      orgId: caller.orgId,
      changes,
      by: actorOf(caller),
      now: services.clock(),
    });
    await services.projections.waitFor(done.position);
    res.json(await projectView(services, req, await ownProject(services, caller, id), true));
  });

  router.delete('/v1/projects/:id', authenticate(services, 'resources:write'), async (req, res) => {
    const caller = callerOf(res);
    const id = idParam(req);
    await ownProject(services, caller, id);
    const done = await handleCommand(services.store, projectStream(id), projectDecider, {
      type: 'DeleteProject',
      projectId: id,
      orgId: caller.orgId,
      by: actorOf(caller),
      now: services.clock(),
    });
    await services.projections.waitFor(done.position);
    res.json({ id, object: 'project', deleted: true });
  });

  /**
   * Packs the project: claims it on its stream (409 project_busy), then creates the job like
   * POST /v1/pack; a job that is not admitted releases the claim, so no claim is left without a
   * job. A retry with an Idempotency-Key of a pack of this project skips the claim and replays.
   */
  router.post('/v1/projects/:id/pack', authenticate(services, 'pack:write', 'resources:write'), async (req, res) => {
    const caller = callerOf(res);
    const id = idParam(req);
    const waitMs = waitParam(req.query['wait']);
    const idempotencyKey = idempotencyKeyOf(req.get('idempotency-key'));
    const { state } = await loadState(services.store, projectStream(id), projectDecider);
    if (state.status !== 'active' || state.orgId !== caller.orgId || !state.content) {
      throw new ApiError('project_not_found', `no project ${id} in this organization`);
    }
    const request = projectPackRequest(state.content);
    const checked = checkedRequest(request, await checkContextFor(services, caller, request));
    const now = services.clock();
    const keyHash = idempotencyKey === undefined ? null : sha256(idempotencyKey);
    const replay =
      keyHash !== null &&
      (state.pack?.keyHash === keyHash ||
        state.history.some((p) => p.keyHash === keyHash && p.jobId !== null && Date.parse(now) - Date.parse(p.startedAt) < IDEMPOTENCY_WINDOW_MS));
    const packId = replay ? null : newId('pack');
    if (packId !== null) {
      await handleCommand(services.store, projectStream(id), projectDecider, {
        type: 'StartPack',
        projectId: id,
        orgId: caller.orgId,
        packId,
        version: state.version,
        keyHash,
        by: actorOf(caller),
        now,
      });
    }
    let created: Awaited<ReturnType<typeof createJob>>;
    try {
      created = await createJob(services, caller, { checked, source: 'api', projectId: id, ...(idempotencyKey !== undefined ? { idempotencyKey } : {}) });
    } catch (err) {
      if (packId !== null) await handleCommand(services.store, projectStream(id), projectDecider, { type: 'ReleasePack', projectId: id, packId, now: services.clock() });
      throw err;
    }
    if (packId !== null) {
      const assigned = await handleCommand(services.store, projectStream(id), projectDecider, {
        type: 'AssignPackJob',
        projectId: id,
        packId,
        jobId: created.jobId,
        now: services.clock(),
      });
      await services.projections.waitFor(assigned.position);
    }
    await sendCreatedJob(services, req, res, caller.orgId, created, waitMs);
  });

  return router;
}

/** The project's PackRequest checked like a POST /v1/pack body; its problems answer 422 with paths into the project. */
function checkedRequest(request: PackRequest, ctx: CheckContext): CheckedRequest {
  const checked = checkPackRequest(request, ctx);
  if (checked.ok) return checked;
  const n = checked.details.length;
  throw new ApiError('validation_failed', `The project is not a valid job: ${n} problem${n === 1 ? '' : 's'} (see details; paths point into the project).`, checked.details);
}

// ---- docs

const ID_PARAMETER: ParameterDoc = { name: 'id', in: 'path', required: true, description: 'prj_…', schema: { type: 'string' } };

const DOCS: RouteDoc[] = [
  {
    method: 'get',
    path: '/v1/projects',
    operationId: 'listProjects',
    summary: 'List projects',
    description: 'Newest first. `q` matches name or id; `created_by` filters by creator. Records leave `plan` out (GET one project for it).',
    tags: ['Projects'],
    scopes: ['resources:read'],
    parameters: LIST_PARAMETERS,
    responses: { '200': { description: 'A page of projects', schema: ref('ProjectList') } },
    errors: ['validation_failed'],
  },
  {
    method: 'post',
    path: '/v1/projects',
    operationId: 'createProject',
    summary: 'Create a project',
    description: 'Saves vehicle slots and items; ids `pv_…` and `item_…` are given by the service. Saved records named must exist; the pack rules apply when packing.',
    tags: ['Projects'],
    scopes: ['resources:write'],
    requestBody: { description: 'The project', schema: ref('ProjectInput'), required: true },
    responses: { '201': { description: 'The new project', schema: ref('Project') } },
    errors: ['validation_failed', 'plan_limit_reached'],
  },
  {
    method: 'get',
    path: '/v1/projects/{id}',
    operationId: 'getProject',
    summary: 'Get a project with its plan',
    description: '`plan` is the Result of the last saved project pack and `pdf_url` its PDF link; `packing` the job of a pack in progress.',
    tags: ['Projects'],
    scopes: ['resources:read'],
    parameters: [ID_PARAMETER],
    responses: { '200': { description: 'The project', schema: ref('Project') } },
    errors: ['project_not_found'],
  },
  {
    method: 'patch',
    path: '/v1/projects/{id}',
    operationId: 'updateProject',
    summary: 'Update a project',
    description:
      'The fields given replace the stored ones (lists whole; send a slot or item `id` back to keep it). Changing a project while it is packed ' +
      'leaves that pack\'s plan on its job with warning `project_not_saved`.',
    tags: ['Projects'],
    scopes: ['resources:write'],
    parameters: [ID_PARAMETER],
    requestBody: { description: 'Fields to replace', schema: ref('ProjectPatch'), required: true },
    responses: { '200': { description: 'The updated project', schema: ref('Project') } },
    errors: ['project_not_found', 'validation_failed'],
  },
  {
    method: 'delete',
    path: '/v1/projects/{id}',
    operationId: 'deleteProject',
    summary: 'Delete a project',
    description: 'A pack in progress runs on; its plan stays on its job (warning `project_not_saved`).',
    tags: ['Projects'],
    scopes: ['resources:write'],
    parameters: [ID_PARAMETER],
    responses: { '200': { description: 'Deleted', schema: ref('Deleted') } },
    errors: ['project_not_found'],
  },
  {
    method: 'post',
    path: '/v1/projects/{id}/pack',
    operationId: 'packProject',
    summary: 'Pack a project',
    description:
      'No body: the project is the request (slots as vehicles with their `pv_…` ids, items with their `item_…` ids, groups, options). ' +
      'Creates a job priced and run like POST /v1/pack and answers the same way (202, or 200 when `?wait=` saw it end). On success the plan ' +
      'is saved into the project unless the project changed meanwhile (then warning `project_not_saved`, the plan stays on the job). ' +
      '409 `project_busy` while a pack of the project is in progress. The same `Idempotency-Key` within 24 hours replays the original job.',
    tags: ['Projects'],
    scopes: ['pack:write', 'resources:write'],
    parameters: [
      ID_PARAMETER,
      { name: 'wait', in: 'query', description: 'Seconds to wait for the job to end (0–60, default 0)', schema: { type: 'number', minimum: 0, maximum: 60 } },
      { name: 'Idempotency-Key', in: 'header', description: 'Retry key, at most 128 characters; replays the original job within 24 hours', schema: { type: 'string', maxLength: 128 } },
    ],
    responses: {
      '200': { description: 'The job ended within `wait`: final status, `result` inlined when succeeded', schema: ref('Job') },
      '202': { description: 'The job is queued or running; poll GET /v1/jobs/{id}', schema: ref('Job') },
    },
    errors: ['project_not_found', 'project_busy', 'validation_failed', 'idempotency_key_invalid', 'insufficient_credits', 'too_many_jobs', 'conflict'],
  },
];

/** Route module: router, OpenAPI docs and the component schemas Project, ProjectInput, ProjectPatch, ProjectList, ProjectVehicle, ProjectItem. */
export const projectsRoutes: RouteModule = {
  router: projectsRouter,
  docs: DOCS,
  schemas: {
    Project: PROJECT_SCHEMA,
    ProjectInput: PROJECT_INPUT_SCHEMA,
    ProjectPatch: PROJECT_PATCH_SCHEMA,
    ProjectList: listSchema('ProjectList', 'Project'),
    ProjectVehicle: PROJECT_VEHICLE_SCHEMA,
    ProjectItem: PROJECT_ITEM_SCHEMA,
  },
};
