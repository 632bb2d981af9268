/**
 * GET /v1/jobs/{id}/loading_list?format=csv|xlsx (our extension; scope jobs:read): the units of a
 * succeeded job's plan in loading order as a file to download (api/http/jobs/loading-list.ts). Answers the
 * errors of GET /v1/jobs/{id}/result for the job's state; a bad `format` is 422 validation_failed,
 * like every bad query parameter of this API. `?revision=N`: the list of plan revision N.
 */
import { Router } from 'express';
import type { Plan } from '../../../domain/pack/plan.js';
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
    const result = (await resultOrError(ctx, req, job, revision)) as unknown as Pick<Plan, 'vehicles' | 'unplaced'>;
    const rows = loadingListRows(result);
    const name = revision > 0 ? `${job.id}-r${revision}` : job.id;
    res.setHeader('Content-Type', LOADING_LIST_CONTENT_TYPES[format]);
    res.setHeader('Content-Disposition', `attachment; filename="${name}-loading-list.${format}"`);
    res.setHeader('Cache-Control', 'private, no-store');
    res.send(format === 'csv' ? Buffer.from(loadingListCsv(rows), 'utf8') : await loadingListXlsx(rows));
  });
  return router;
}

const CSV_EXAMPLE =
  'step,vehicle,item_id,instance,label,x_cm,y_cm,z_cm,length_cm,width_cm,height_cm,orientation,weight_kg,status,unplaced_reason\r\n' +
  '1,#1 Box truck (box-truck-7t5, copy 1),pallet,1,Euro pallet,0,0,0,120,80,140,lwh,350,placed,\r\n' +
  '2,#1 Box truck (box-truck-7t5, copy 1),pallet,2,Euro pallet,0,0,80,120,80,140,lwh,350,placed,\r\n' +
  ',,pallet,3,Euro pallet,,,,,,,,,unplaced,weight_limit\r\n';

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
        'Our extension (not in the spec\'s Endpoints table). One row per unit in loading order (vehicles in plan order, units by loading step within their vehicle): `step`, `vehicle` ("#<position> <name> (<vehicle_id>, copy <copy>)"), `item_id`, `instance`, `label`, position `x_cm`/`y_cm`/`z_cm` (min corner), size as placed `length_cm`/`width_cm`/`height_cm`, `orientation`, `weight_kg` (one unit), `status` `placed`. ' +
        'Unplaced units follow as trailing rows with `status` `unplaced` and `unplaced_reason`, the other columns empty. ' +
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
