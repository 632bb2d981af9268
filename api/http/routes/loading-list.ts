/**
 * GET /v1/jobs/{id}/loading_list?format=csv|xlsx (our extension; scope jobs:read): the units of a
 * succeeded job's plan in loading order as a file to download (api/http/jobs/loading-list.ts),
 * with the group, hazardous flag and supporting units read from the job's resolved model. Answers
 * the errors of GET /v1/jobs/{id}/result for the job's state; a bad `format` is 422
 * validation_failed, like every bad query parameter of this API. `?revision=N`: the list of plan
 * revision N (a revision keeps the job's model).
 */
import { Router } from 'express';
import type { Plan } from '../../../domain/pack/plan.js';
import { readJobBody } from '../../../domain/job/body.js';
import { authenticate, callerOf } from '../auth/auth.js';
import { ApiError } from '../errors.js';
import { loadingListRows } from '../jobs/loading-list.js';
import {
  LOADING_LIST_CONTENT_TYPES,
  LOADING_LIST_FORMATS,
  loadingListCsv,
  loadingListXlsx,
  type LoadingListFormat,
} from '../jobs/loading-list-files.js';
import { ROUTER_OPTIONS, type RouteModule } from '../route-docs.js';
import type { RouteContext } from '../context.js';
import { ownJob, resultOrError } from './jobs.js';
import { REVISION_PARAMETER, revisionParam } from '../jobs/plan-revision.js';

/** `?format=` (csv when absent). Throws 422 validation_failed for anything else. */
function formatParam(raw: unknown): LoadingListFormat {
  if (raw === undefined) return 'csv';
  if (typeof raw === 'string' && (LOADING_LIST_FORMATS as readonly string[]).includes(raw))
    return raw as LoadingListFormat;
  throw new ApiError('validation_failed', 'the query is invalid', [
    { path: 'format', code: 'invalid_value', message: `format must be "csv" or "xlsx", got ${JSON.stringify(raw)}` },
  ]);
}

export function loadingListRouter(ctx: RouteContext): Router {
  const router = Router(ROUTER_OPTIONS);
  router.get('/v1/jobs/:id/loading_list', authenticate(ctx, 'jobs:read'), async (req, res) => {
    const format = formatParam(req.query['format']);
    const revision = revisionParam(req.query['revision']);
    const job = await ownJob(ctx, callerOf(res).orgId, String(req.params['id']));
    const result = (await resultOrError(ctx, req, job, revision)) as unknown as Plan;
    // The request and the result are deleted together at retention: a result without its model is past it.
    const model = (await readJobBody(ctx.store, job.id, 'request')).request?.model;
    if (!model) throw new ApiError('result_expired', `the request of job ${job.id} is no longer stored`);
    const rows = loadingListRows(result, model);
    const name = revision > 0 ? `${job.id}-r${revision}` : job.id;
    res.setHeader('Content-Type', LOADING_LIST_CONTENT_TYPES[format]);
    res.setHeader('Content-Disposition', `attachment; filename="${name}-loading-list.${format}"`);
    res.setHeader('Cache-Control', 'private, no-store');
    res.send(format === 'csv' ? Buffer.from(loadingListCsv(rows), 'utf8') : await loadingListXlsx(rows));
  });
  return router;
}

const CSV_EXAMPLE =
  'step,vehicle,item_id,instance,label,x_cm,y_cm,z_cm,length_cm,width_cm,height_cm,orientation,weight_kg,status,unplaced_reason,group,hazardous,rests_on\r\n' +
  '1,"#1 Box truck (box-truck-7t5, copy 1)",pallet,1,Euro pallet,0,0,0,120,80,140,lwh,350.5,placed,,Stop 1,no,\r\n' +
  '2,"#1 Box truck (box-truck-7t5, copy 1)",pallet,2,Euro pallet,0,0,80,120,80,140,lwh,350.5,placed,,Stop 1,no,\r\n' +
  '3,"#1 Box truck (box-truck-7t5, copy 1)",drum,1,Solvent drum,120,0,0,58.4,58.4,88.5,lwh,215.3,placed,,Stop 2,yes,\r\n' +
  '4,"#1 Box truck (box-truck-7t5, copy 1)",crate,1,Crate,0,140,0,120,160,60,lwh,80,placed,,Stop 2,no,"pallet#1, pallet#2"\r\n' +
  ',,pallet,3,Euro pallet,,,,,,,,,unplaced,weight_limit,Stop 1,no,\r\n';

/** Route module: router and OpenAPI docs. */
export const loadingListRoutes: RouteModule = {
  router: loadingListRouter,
  docs: [
    {
      method: 'get',
      path: '/v1/jobs/{id}/loading_list',
      operationId: 'getJobLoadingList',
      summary: 'Download the loading list of a succeeded job (CSV or Excel)',
      description:
        'Our extension (not in the spec\'s Endpoints table). One row per unit in loading order (vehicles in plan order, units by loading step within their vehicle): `step`, `vehicle` ("#<position> <name> (<vehicle_id>, copy <copy>)"), `item_id`, `instance`, `label`, position `x_cm`/`y_cm`/`z_cm` (min corner), size as placed `length_cm`/`width_cm`/`height_cm`, `orientation`, `weight_kg` (one unit), `status` `placed`, `unplaced_reason` (empty), then `group` (the item\'s group, spec Item.group: the stop in a multi-drop plan; empty without one), `hazardous` (`yes`/`no`, spec Item.hazardous) and `rests_on` (the units it stands on as `item_id#instance`, in loading order, separated by `, `; empty on the floor or the second deck). ' +
        'Lengths in cm to the mm (1 decimal), weights in kg to 0.1 kg. ' +
        'Unplaced units follow as trailing rows with `status` `unplaced`, `unplaced_reason`, `group` and `hazardous`, the other columns empty. ' +
        'CSV: RFC 4180, UTF-8, CRLF, header row. Excel: one sheet "Loading list", header row, numbers as numeric cells. Text cells starting with `=`, `+`, `-` or `@` are prefixed with `\'` (no formula runs when the file is opened). ' +
        'Errors as GET /v1/jobs/{id}/result: queued/running 409 `job_not_finished`, failed 409 `job_failed`, canceled 409 `job_canceled`, after retention 410 `result_expired`. An unknown `format`: 422 `validation_failed`. ' +
        '`?revision=N`: the list of plan revision N (file `<job id>-r<N>-loading-list.<format>`); an unknown revision 404 `not_found`.',
      tags: ['Jobs'],
      scopes: ['jobs:read'],
      parameters: [
        { name: 'id', in: 'path', required: true, description: 'Job id (`job_…`)', schema: { type: 'string' } },
        {
          name: 'format',
          in: 'query',
          description: '`csv` (default) or `xlsx`',
          schema: { type: 'string', enum: [...LOADING_LIST_FORMATS], default: 'csv' },
        },
        REVISION_PARAMETER,
      ],
      responses: {
        '200': {
          description:
            'The loading list as an attachment (`Content-Disposition: attachment; filename="<job id>-loading-list.<format>"`); `format=xlsx` answers `application/vnd.openxmlformats-officedocument.spreadsheetml.sheet`',
          contentType: 'text/csv',
          schema: { type: 'string' },
          example: CSV_EXAMPLE,
          headers: {
            'Content-Disposition': {
              description: '`attachment; filename="<job id>-loading-list.csv"` (or `.xlsx`)',
              schema: { type: 'string' },
            },
          },
        },
      },
      errors: [
        'job_not_found',
        'job_not_finished',
        'job_failed',
        'job_canceled',
        'result_expired',
        'not_found',
        'validation_failed',
      ],
    },
  ],
};
