/** The OpenAPI operations of the projects (spec Endpoints: /v1/projects, /v1/projects/{id}, /v1/projects/{id}/pack). */
import { ref } from '../openapi/components.js';
import type { ParameterDoc, RouteDoc } from '../route-docs.js';
import { LIST_PARAMETERS } from '../saved-record.js';

const ID_PARAMETER: ParameterDoc = {
  name: 'id',
  in: 'path',
  required: true,
  description: 'prj_…',
  schema: { type: 'string' },
};

/** The OpenAPI operations of /v1/projects. */
export const PROJECT_DOCS: RouteDoc[] = [
  {
    method: 'get',
    path: '/v1/projects',
    operationId: 'listProjects',
    summary: 'List projects',
    description:
      'Newest first. `q` matches name or id; `created_by` filters by creator. Records leave `plan` out (GET one project for it).',
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
    description:
      'Saves vehicle slots and items; ids `pv_…` and `item_…` are given by the service. Saved records named must exist; the pack rules apply when packing.',
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
    description:
      '`plan` is the Result of the last saved project pack and `pdf_url` its PDF link; `packing` the job of a pack in progress.',
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
      "leaves that pack's plan on its job with warning `project_not_saved`.",
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
      {
        name: 'wait',
        in: 'query',
        description: 'Seconds to wait for the job to end (0–60, default 0)',
        schema: { type: 'number', minimum: 0, maximum: 60 },
      },
      {
        name: 'Idempotency-Key',
        in: 'header',
        description: 'Retry key, at most 128 characters; replays the original job within 24 hours',
        schema: { type: 'string', maxLength: 128 },
      },
    ],
    responses: {
      '200': {
        description: 'The job ended within `wait`: final status, `result` inlined when succeeded',
        schema: ref('Job'),
      },
      '202': { description: 'The job is queued or running; poll GET /v1/jobs/{id}', schema: ref('Job') },
    },
    errors: [
      'project_not_found',
      'project_busy',
      'validation_failed',
      'idempotency_key_invalid',
      'insufficient_credits',
      'too_many_jobs',
      'idempotency_key_pending',
    ],
  },
];
