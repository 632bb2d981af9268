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
 *
 * This module holds the routes and their docs; the schemas are api/http/projects/schema.ts, the content
 * of a body api/http/projects/content.ts, the record api/http/projects/view.ts, the pack step
 * api/http/projects/pack.ts, its OpenAPI operations api/http/projects/docs.ts.
 */
import { Router, type Request } from 'express';
import { handleCommand } from '../../../domain/decider/handle.js';
import { projectDecider } from '../../../domain/project/decide.js';
import { projectStream } from '../../../domain/project/streams.js';
import { PROJECTS, type ProjectDocument } from '../../../projections/projects/project-document.js';
import { actorOf } from '../auth/actor.js';
import { authenticate, callerOf } from '../auth/auth.js';
import { jsonBody } from '../body.js';
import { ApiError } from '../errors.js';
import { newId } from '../../../application/id.js';
import { listPage, parseListQuery, textSearch } from '../paging.js';
import { projectContentOf } from '../projects/content.js';
import { packProject } from '../projects/pack.js';
import {
  PROJECT_INPUT_SCHEMA,
  PROJECT_ITEM_SCHEMA,
  PROJECT_PATCH_SCHEMA,
  PROJECT_SCHEMA,
  PROJECT_VEHICLE_SCHEMA,
  validateProjectInput,
  validateProjectPatch,
} from '../projects/schema.js';
import { ownProject, projectView } from '../projects/view.js';
import { ROUTER_OPTIONS, type RouteModule } from '../route-docs.js';
import { listSchema, refuseProblems, requireObject, schemaProblemsOf } from '../saved-record.js';
import type { PackContext } from '../context.js';
import { PROJECT_DOCS } from '../projects/docs.js';

const idParam = (req: Request): string => String(req.params['id']);

export function projectsRouter(ctx: PackContext): Router {
  const router = Router(ROUTER_OPTIONS);
  const projects = ctx.reads.collection<ProjectDocument>(PROJECTS);

  router.get('/v1/projects', authenticate(ctx, 'resources:read'), async (req, res) => {
    const caller = callerOf(res);
    const query = parseListQuery(req.query, caller);
    const { data, next_cursor } = await listPage(
      projects,
      {
        where: { orgId: caller.orgId, ...(query.createdBy !== null ? { createdById: query.createdBy } : {}) },
        ...textSearch<ProjectDocument>(query.q, ['name', 'id']),
      },
      query,
    );
    res.json({ data: await Promise.all(data.map((d) => projectView(ctx, req, d, false))), next_cursor });
  });

  router.get('/v1/projects/:id', authenticate(ctx, 'resources:read'), async (req, res) => {
    res.json(await projectView(ctx, req, await ownProject(ctx, callerOf(res), idParam(req)), true));
  });

  router.post('/v1/projects', authenticate(ctx, 'resources:write'), async (req, res) => {
    const caller = callerOf(res);
    const body = requireObject(jsonBody(req));
    refuseProblems(schemaProblemsOf(validateProjectInput, body), 'project');
    const content = await projectContentOf(ctx, caller, body, null);
    const max = caller.org.limits.maxProjects;
    // A soft cap: read-model count, so two creations racing at the cap may both pass.
    if ((await projects.count({ where: { orgId: caller.orgId } })) >= max) {
      throw new ApiError(
        'plan_limit_reached',
        `the organization's plan allows ${max} projects; delete one or upgrade the plan`,
      );
    }
    const projectId = newId('prj');
    const done = await handleCommand(ctx.store, projectStream(projectId), projectDecider, {
      type: 'CreateProject',
      data: {
        projectId,
        orgId: caller.orgId,
        content: {
          name: content.name!,
          vehicles: content.vehicles ?? [],
          items: content.items ?? [],
          groups: content.groups ?? [],
          options: content.options ?? {},
        },
      },
      metadata: { now: ctx.clock(), actor: actorOf(caller) },
    });
    await ctx.projections.waitFor(done.position);
    res.status(201).json(await projectView(ctx, req, await ownProject(ctx, caller, projectId), true));
  });

  router.patch('/v1/projects/:id', authenticate(ctx, 'resources:write'), async (req, res) => {
    const caller = callerOf(res);
    const id = idParam(req);
    const current = await ownProject(ctx, caller, id);
    const body = requireObject(jsonBody(req));
    refuseProblems(schemaProblemsOf(validateProjectPatch, body), 'project');
    const changes = await projectContentOf(ctx, caller, body, current);
    const done = await handleCommand(ctx.store, projectStream(id), projectDecider, {
      type: 'UpdateProject',
      data: { projectId: id, orgId: caller.orgId, changes },
      metadata: { now: ctx.clock(), actor: actorOf(caller) },
    });
    await ctx.projections.waitFor(done.position);
    res.json(await projectView(ctx, req, await ownProject(ctx, caller, id), true));
  });

  router.delete('/v1/projects/:id', authenticate(ctx, 'resources:write'), async (req, res) => {
    const caller = callerOf(res);
    const id = idParam(req);
    await ownProject(ctx, caller, id);
    const done = await handleCommand(ctx.store, projectStream(id), projectDecider, {
      type: 'DeleteProject',
      data: { projectId: id, orgId: caller.orgId },
      metadata: { now: ctx.clock(), actor: actorOf(caller) },
    });
    await ctx.projections.waitFor(done.position);
    res.json({ id, object: 'project', deleted: true });
  });

  router.post('/v1/projects/:id/pack', authenticate(ctx, 'pack:write', 'resources:write'), (req, res) =>
    packProject(ctx, req, res),
  );

  return router;
}

/** Route module: router, OpenAPI docs and the component schemas Project, ProjectInput, ProjectPatch, ProjectList, ProjectVehicle, ProjectItem. */
export const projectsRoutes: RouteModule = {
  router: projectsRouter,
  docs: PROJECT_DOCS,
  schemas: {
    Project: PROJECT_SCHEMA,
    ProjectInput: PROJECT_INPUT_SCHEMA,
    ProjectPatch: PROJECT_PATCH_SCHEMA,
    ProjectList: listSchema('ProjectList', 'Project'),
    ProjectVehicle: PROJECT_VEHICLE_SCHEMA,
    ProjectItem: PROJECT_ITEM_SCHEMA,
  },
};
