/**
 * The job's schemas in the OpenAPI document: Job with its progress, summary, cost and error, and
 * the Result (vehicles, placements, axle loads, unplaced units, warnings). Shapes follow what the
 * service sends: api/http/jobs/job-view.ts (Job, Result), domain/pack/plan.ts (ResultVehicle,
 * Placement, UnplacedItem). Lengths cm, weights kg, times ms, amounts credits.
 */
import type { JsonSchema } from '../route-docs.js';
import { ref, str, int, num, bool, time, nullableTime, credits, arrayOf, record } from './schema-builders.js';

export const warning = record(
  'Warning',
  'A non-blocking remark about a request or plan (e.g. `limited_by_balance`, `project_not_saved`).',
  {
    code: str('snake_case warning code'),
    message: str('English explanation'),
    path: str('JSON path of the field it concerns, when one'),
  },
  ['path'],
);

export const point = record(
  'Point',
  'A point in vehicle coordinates, cm: x from the front wall, y up from the floor, z from the right wall.',
  {
    x: num('cm along the length'),
    y: num('cm up from the floor'),
    z: num('cm across, from the right wall'),
  },
);

export const placement = record(
  'Placement',
  'One item unit in a vehicle; coordinates are its min corner, sizes as placed (cm).',
  {
    item_id: str('Item definition id (`item_…` for project jobs)'),
    instance: int('1-based unit number within the item definition, unique across the plan'),
    label: str('Item label'),
    x: num('cm from the front wall'),
    y: num('cm up from the floor'),
    z: num('cm from the right wall'),
    length: num('Size along x as placed (cm)'),
    width: num('Size along z as placed (cm)'),
    height: num('Size along y as placed (cm)'),
    rotated: bool('True when not placed as defined'),
    orientation: {
      type: 'string',
      enum: ['lwh', 'wlh', 'lhw', 'hwl', 'whl', 'hlw'],
      description: 'Which defined sides lie along x, z, y',
    },
    step: int('1-based loading step within the vehicle'),
    weight: num('kg'),
  },
);

export const axleLoad = record('AxleLoad', 'Load on one axle group (only with axle data and axle access).', {
  name: str('`Axle 1`, `Axle 2`… in the order of axle_positions'),
  position: num('cm from the front of the cargo area'),
  load: num('kg'),
  max: num('kg, 0 = no maximum'),
  ok: bool('load ≤ max; always true without a maximum'),
});

export const resultVehicle = record(
  'ResultVehicle',
  'A loaded vehicle of the plan, in loading order.',
  {
    index: int('0-based position in the plan'),
    vehicle_id: str('Request definition id; slot id `pv_…` for project jobs'),
    copy: int('1-based copy of that definition'),
    auto_added: bool('Added by auto mode beyond the listed quantity'),
    name: str('Vehicle name'),
    type: {
      type: 'string',
      enum: ['truck', 'trailer', 'flatbed', 'container', 'pallet', 'aircraft', 'ship'],
      description: 'Vehicle type',
    },
    length: num('Inner length (cm)'),
    width: num('Inner width (cm)'),
    height: num('Inner height (cm)'),
    max_weight: num('Payload (kg)'),
    items_placed: int('Units in this vehicle'),
    total_weight: num('kg loaded'),
    volume_utilization: num('0–1'),
    weight_utilization: num('total_weight / max_weight; may exceed 1 with allow_overweight'),
    center_of_gravity: ref('Point'),
    placements: arrayOf('Placement', 'Every unit in this vehicle'),
    axle_loads: arrayOf('AxleLoad', 'Only on vehicles with axle data, for organizations with axle access'),
  },
  ['axle_loads'],
);

export const unplacedItem = record('UnplacedItem', 'A unit that could not be placed.', {
  item_id: str('Item definition id'),
  instance: int('1-based unit number'),
  label: str('Item label'),
  reason: {
    type: 'string',
    description:
      '`no_space`, `weight_limit`, `load_limit` (max_stack_weight, floor_load_capacity or max_stack_density_kg_m2), `axle_limit` (enforce_axle), `vehicle_limit`, `time_limit`, or (our extension, the safe stacking rules) `rule_pallets_on_cartons`, `rule_heavy_on_light`, `rule_max_slenderness`',
  },
});

/** Our extension: why the search ended (domain/job/job.ts StopReason). */
const stopReason = (what: string): JsonSchema => ({
  type: ['string', 'null'],
  enum: ['bound_reached', 'stagnated', 'time_limit', 'work_limit', 'canceled', null],
  description:
    `Our extension (not in the spec): why the search ended${what}. ` +
    '`bound_reached`: every unit placed in the fewest vehicles the volume and payload allow (nothing can be better); ' +
    '`stagnated`: with the automatic budget (`time_limit` 0) the search ended once no better plan had come for ' +
    'max(1 s, 30 % of the budget, 30 % of the time computed so far) and for 30 % of its block placements (18 % for each share while units are left unplaced), after its first complete beam round; ' +
    '`time_limit`: the budget ran out (an explicit `time_limit` is always used to its end unless the bound is reached); ' +
    "`work_limit`: the deterministic mode's `work_limit` ended it; `canceled`: canceled while computing. " +
    'null before the job ended, when it never computed, and for jobs that ended before this field existed.',
  example: 'stagnated',
});

export const result = record('Result', 'The load plan of a succeeded job.', {
  job_id: str('The job (`job_…`)'),
  vehicles: arrayOf('ResultVehicle', 'Loaded vehicles in loading order; empty vehicles left out'),
  unplaced: arrayOf('UnplacedItem', 'Units that could not be placed'),
  warnings: arrayOf('Warning', 'Remarks about the plan'),
  pdf_url: str('Browser link rendering the plan as PDF; "" after expires_at'),
  viewer_url: str(
    `Our extension (not in the spec): browser link of the interactive 3D viewer of the plan, signed like pdf_url; "" after expires_at`,
  ),
  expires_at: time('When the result and the PDF and viewer links are deleted'),
  stop_reason: stopReason(' (never `canceled` in a result)'),
});

export const jobProgress = record('JobProgress', 'Live progress; informational, branch on Job.status.', {
  stage: str('`queued`, `running`, `finalizing`, `done`…'),
  vehicles_done: int('Vehicles packed so far'),
  placed_items: int('Units placed so far'),
});

export const jobSummary = record('JobSummary', 'Counts and timings of a job.', {
  items_requested: int('Item units requested'),
  items_placed: int('Units placed'),
  items_unplaced: int('Units not placed'),
  vehicles_used: int('Loaded vehicles'),
  total_weight: num('kg placed'),
  volume_utilization: num('0–1, average over used vehicles'),
  queue_ms: int('Time waiting for a compute slot (ms, not billed)'),
  compute_ms: int('Compute time used (ms, billed)'),
  stop_reason: stopReason(''),
});

export const costBreakdown = record('CostBreakdown', 'Price components of the final charge, credits.', {
  base: credits('Per-job fee'),
  vehicles: credits('Per loaded vehicle'),
  compute: credits('Per compute-second, pro-rated per ms'),
  large_load: credits('Per started 100 items above the large-load threshold'),
});

export const jobCost = record('JobCost', 'Charges and reservation of a job.', {
  credits: credits('Final charge; 0 until the job ends'),
  reserved_credits: credits('Worst-case hold, released when the job ends'),
  rate_card_version: int('Rate card the job is priced with'),
  breakdown: ref('CostBreakdown'),
});

export const jobError = record('JobError', 'Why a job failed or was canceled.', {
  code: {
    type: 'string',
    enum: ['canceled', 'time_limit_exceeded', 'engine_failed', 'queue_timeout', 'server_restarted'],
    description: 'Job error code',
  },
  message: str('English explanation'),
});

export const job = record(
  'Job',
  'An asynchronous packing job.',
  {
    id: str('`job_…`'),
    object: { type: 'string', const: 'job', description: 'Always `job`' },
    status: {
      type: 'string',
      enum: ['queued', 'running', 'succeeded', 'failed', 'canceled'],
      description: 'Final: succeeded, failed, canceled',
    },
    reference: { type: ['string', 'null'], description: "Caller's reference from the request, or null" },
    source: { type: 'string', enum: ['api', 'playground'], description: 'Where the job was created' },
    project_id: str('`prj_…`; only on jobs created by POST /v1/projects/{id}/pack'),
    created_at: time('Creation time'),
    started_at: nullableTime('When computing started'),
    finished_at: nullableTime('When the job ended'),
    progress: ref('JobProgress'),
    summary: ref('JobSummary'),
    cost: ref('JobCost'),
    error: {
      oneOf: [ref('JobError'), { type: 'null' }],
      description: 'Why the job failed or was canceled; null otherwise',
    },
    warnings: arrayOf('Warning', 'Non-blocking remarks, repeated in the result'),
    result_url: str('GET it for the full result when succeeded'),
    pdf_url: str('Browser link rendering the plan as PDF; "" unless succeeded and within retention'),
    viewer_url: str(
      `Our extension (not in the spec): browser link of the interactive 3D viewer of the plan, signed like pdf_url; "" whenever pdf_url is ""`,
    ),
    expires_at: time('When request/result bodies and the PDF and viewer links are deleted'),
    result: ref('Result'),
    request: {
      oneOf: [ref('PackRequest'), { type: 'null' }],
      description:
        'Our extension, only with `?include=request`: the PackRequest the job was created with; null after retention',
    },
  },
  ['project_id', 'result', 'request'],
);
