/**
 * Shared component schemas of the OpenAPI document (JSON Schema 2020-12, as OpenAPI 3.1 uses):
 * the records several routes answer with (spec "Resources and their fields": Job, Result,
 * Estimate, Balance, Limits, the error envelope) and the PackRequest with its `$defs` lifted into
 * components. Shapes follow what the service really sends: api/http/job-view.ts (Job, Result),
 * domain/pack/plan.ts (ResultVehicle, Placement, UnplacedItem), api/http/routes/account.ts (Balance,
 * Limits, RateCard), api/http/routes/estimate.ts (Estimate), api/http/errors.ts (Error).
 * Amounts are credits, lengths cm, weights kg, times ms unless a field says otherwise.
 */
import type { ErrorCode } from '../../../domain/errors.js';
import { ERROR_STATUS as STATUS_OF_CODE } from '../error-status.js';
import type { JsonSchema } from '../route-docs.js';
import { PACK_REQUEST_SCHEMA } from '../pack-request/schema.js';

/** `#/components/schemas/<name>`. */
export const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

const str = (description: string): JsonSchema => ({ type: 'string', description });
const int = (description: string): JsonSchema => ({ type: 'integer', description });
const num = (description: string): JsonSchema => ({ type: 'number', description });
const bool = (description: string): JsonSchema => ({ type: 'boolean', description });
const time = (description: string): JsonSchema => ({ type: 'string', format: 'date-time', description });
const nullableTime = (description: string): JsonSchema => ({
  type: ['string', 'null'],
  format: 'date-time',
  description,
});
const credits = (description: string): JsonSchema => ({
  type: 'number',
  description: `${description} (credits; 1 credit = 1 USD)`,
});
const arrayOf = (name: string, description: string): JsonSchema => ({ type: 'array', items: ref(name), description });

/** An object schema whose listed properties are all required unless named in `optional`. */
function record(
  title: string,
  description: string,
  properties: Record<string, JsonSchema>,
  optional: string[] = [],
): JsonSchema {
  return {
    title,
    description,
    type: 'object',
    required: Object.keys(properties).filter((k) => !optional.includes(k)),
    properties,
  };
}

/** Detail codes of `details[].code` (spec Errors, second table). */
export const DETAIL_CODES = [
  'required',
  'invalid_value',
  'out_of_range',
  'duplicate_id',
  'unknown_vehicle',
  'unknown_template',
  'type_not_allowed',
  'unknown_group',
  'does_not_fit',
  'too_many_items',
  'too_many_vehicles',
  'unknown_field',
  'invalid_json',
] as const;

/**
 * HTTP status of every `error.code`: the service's one table (api/http/error-status.ts), here indexed by
 * any string for readers of the built document's codes.
 */
export const ERROR_STATUS: Readonly<Record<string, number>> = STATUS_OF_CODE;

/**
 * Codes every authenticated operation can answer (spec Authentication 5), and ours: `forbidden`
 * when the caller is the web app's session and a change lacks its CSRF token.
 */
export const AUTH_ERRORS = [
  'unauthorized',
  'key_revoked',
  'key_expired',
  'ip_not_allowed',
  'subscription_inactive',
  'account_inactive',
  'scope_missing',
  'rate_limited',
  'api_disabled',
  'forbidden',
] as const satisfies readonly ErrorCode[];

/** Short meaning of each error code, for the per-status response descriptions (spec Errors). */
export const ERROR_MEANING: Readonly<Record<ErrorCode, string>> = {
  invalid_json: 'Body is not valid JSON or a field has the wrong type',
  idempotency_key_invalid: 'Idempotency-Key longer than 128 characters',
  unauthorized: 'Missing, malformed or unknown key',
  key_revoked: 'Key revoked',
  key_expired: 'Key past expiry',
  insufficient_credits: 'Available credits do not cover the smallest possible run; nothing charged',
  ip_not_allowed: 'Caller IP not on the allowlist',
  subscription_inactive: 'No active subscription including the API',
  account_inactive: 'Organization suspended or no active owner',
  scope_missing: 'Key lacks a needed scope',
  preset_read_only: 'Presets cannot be changed or deleted',
  plan_limit_reached: 'Plan allows no more projects or cargo items',
  not_found: 'No endpoint with this method and path, or no such link',
  job_not_found: 'No such job in the organization',
  vehicle_not_found: 'No such preset or organization vehicle',
  template_not_found: 'No such template',
  project_not_found: 'No such project',
  job_not_finished: 'Job still queued or running (retry later)',
  project_busy: 'Project is being packed now (retry later)',
  job_failed: 'Job failed, no result; read job.error',
  job_canceled: 'Job canceled, no result',
  job_already_finished: 'Job ended, cannot be canceled',
  conflict: 'The same Idempotency-Key is in use by a concurrent request (retry)',
  result_expired: 'Result deleted after retention',
  payload_too_large:
    'Body exceeds 10 MB, or what it asks to store exceeds 1,000,000 bytes in one change (e.g. a project of 2,000 items with long labels; job requests and results are compressed and split, so a legal pack request never gets it)',
  validation_failed: 'Well-formed JSON describing an invalid request; details[] lists every problem',
  rate_limited:
    'Too many requests in the minute, hour or day, or too many failed authentications (retry after Retry-After)',
  too_many_jobs: 'Maximum queued + running jobs reached (retry later)',
  internal_error: 'Failure on the service side (retry with backoff)',
  api_disabled:
    'API disabled for maintenance, switched off for the organization, the service is starting, or an engine it depends on is down (retry after Retry-After)',
  forbidden:
    "Web app session (not an API key): missing or wrong X-CSRF-Token on a change, a foreign Origin, or an owner's route asked by a member",
};

const errorDetail = record('ErrorDetail', 'One problem of a 400/422 answer.', {
  path: str(
    'JSON path of the field, such as `items[3].length`; "" for the whole body; a query parameter name for query problems',
  ),
  code: { type: 'string', enum: [...DETAIL_CODES], description: 'Detail code (spec Errors, second table)' },
  message: str('English explanation'),
});

const errorEnvelope = {
  title: 'Error',
  description: 'Every non-2xx answer. Branch on `error.code`, never on `message`.',
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message', 'request_id'],
      properties: {
        code: str('snake_case error code (spec Errors)'),
        message: str('English explanation'),
        request_id: str('Equals the X-Request-Id header (`req_…`)'),
        details: arrayOf('ErrorDetail', 'Every problem; present on 400 and 422'),
      },
    },
  },
};

const warning = record(
  'Warning',
  'A non-blocking remark about a request or plan (e.g. `limited_by_balance`, `project_not_saved`).',
  {
    code: str('snake_case warning code'),
    message: str('English explanation'),
    path: str('JSON path of the field it concerns, when one'),
  },
  ['path'],
);

const point = record(
  'Point',
  'A point in vehicle coordinates, cm: x from the front wall, y up from the floor, z from the right wall.',
  {
    x: num('cm along the length'),
    y: num('cm up from the floor'),
    z: num('cm across, from the right wall'),
  },
);

const placement = record(
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

const axleLoad = record('AxleLoad', 'Load on one axle group (only with axle data and axle access).', {
  name: str('`Axle 1`, `Axle 2`… in the order of axle_positions'),
  position: num('cm from the front of the cargo area'),
  load: num('kg'),
  max: num('kg, 0 = no maximum'),
  ok: bool('load ≤ max; always true without a maximum'),
});

const resultVehicle = record(
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

const unplacedItem = record('UnplacedItem', 'A unit that could not be placed.', {
  item_id: str('Item definition id'),
  instance: int('1-based unit number'),
  label: str('Item label'),
  reason: {
    type: 'string',
    description:
      '`no_space`, `weight_limit`, `load_limit` (max_stack_weight, floor_load_capacity or max_stack_density_kg_m2), `axle_limit` (enforce_axle), `vehicle_limit` or `time_limit`',
  },
});

const result = record('Result', 'The load plan of a succeeded job.', {
  job_id: str('The job (`job_…`)'),
  vehicles: arrayOf('ResultVehicle', 'Loaded vehicles in loading order; empty vehicles left out'),
  unplaced: arrayOf('UnplacedItem', 'Units that could not be placed'),
  warnings: arrayOf('Warning', 'Remarks about the plan'),
  pdf_url: str('Browser link rendering the plan as PDF; "" after expires_at'),
  viewer_url: str(
    `Our extension (not in the spec): browser link of the interactive 3D viewer of the plan, signed like pdf_url; "" after expires_at`,
  ),
  expires_at: time('When the result and the PDF and viewer links are deleted'),
});

const jobProgress = record('JobProgress', 'Live progress; informational, branch on Job.status.', {
  stage: str('`queued`, `running`, `finalizing`, `done`…'),
  vehicles_done: int('Vehicles packed so far'),
  placed_items: int('Units placed so far'),
});

const jobSummary = record('JobSummary', 'Counts and timings of a job.', {
  items_requested: int('Item units requested'),
  items_placed: int('Units placed'),
  items_unplaced: int('Units not placed'),
  vehicles_used: int('Loaded vehicles'),
  total_weight: num('kg placed'),
  volume_utilization: num('0–1, average over used vehicles'),
  queue_ms: int('Time waiting for a compute slot (ms, not billed)'),
  compute_ms: int('Compute time used (ms, billed)'),
});

const costBreakdown = record('CostBreakdown', 'Price components of the final charge, credits.', {
  base: credits('Per-job fee'),
  vehicles: credits('Per loaded vehicle'),
  compute: credits('Per compute-second, pro-rated per ms'),
  large_load: credits('Per started 100 items above the large-load threshold'),
});

const jobCost = record('JobCost', 'Charges and reservation of a job.', {
  credits: credits('Final charge; 0 until the job ends'),
  reserved_credits: credits('Worst-case hold, released when the job ends'),
  rate_card_version: int('Rate card the job is priced with'),
  breakdown: ref('CostBreakdown'),
});

const jobError = record('JobError', 'Why a job failed or was canceled.', {
  code: {
    type: 'string',
    enum: ['canceled', 'time_limit_exceeded', 'engine_failed', 'queue_timeout', 'server_restarted'],
    description: 'Job error code',
  },
  message: str('English explanation'),
});

const job = record(
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

const estimate = record('Estimate', 'Answer of POST /v1/estimate: validation and price of a PackRequest, free.', {
  valid: bool('Would POST /v1/pack accept it (false also when credits do not cover the smallest run)'),
  errors: arrayOf('ErrorDetail', 'Every problem; empty when valid'),
  warnings: arrayOf('Warning', 'Remarks such as `limited_by_balance` or `insufficient_credits`'),
  items: int('Total item units'),
  max_vehicles: int('Most vehicles the job may use'),
  estimated_cost: ref('CostRange'),
  estimated_seconds: num('Compute budget the job would get (seconds, upper bound)'),
  balance: record('EstimateBalance', 'Available credits now.', { available_credits: credits('Available') }),
});

const costRange = record('CostRange', 'Price range of a job, credits.', {
  min_credits: credits('Fewest vehicles and no compute'),
  max_credits: credits('Worst case: max_vehicles loaded and the whole compute budget; what POST /v1/pack reserves'),
});

const balance = record('Balance', "The organization's credits.", {
  available_credits: credits('Subscription + purchased − reserved'),
  subscription_credits: credits('Usable subscription credits, spent first'),
  subscription_expires_at: nullableTime('When the subscription credits expire'),
  purchased_credits: credits('Purchased credits, never expire'),
  reserved_credits: credits('Held for running and queued jobs'),
});

const rateLimitWindows = record('RateLimitWindows', 'Requests allowed per window.', {
  per_minute: int('Requests per minute'),
  per_hour: int('Requests per hour'),
  per_day: int('Requests per day'),
});

const rateLimits = record('RateLimits', 'Request limits; the strictest window of key and organization applies.', {
  per_key: ref('RateLimitWindows'),
  per_organization: ref('RateLimitWindows'),
});

const rateCard = record('RateCard', 'Prices in credits.', {
  version: int('Rate card version (Job.cost.rate_card_version)'),
  base: credits('Per-job fee'),
  per_vehicle: credits('Per loaded vehicle'),
  per_compute_second: credits('Per compute-second, pro-rated per ms'),
  large_load_threshold: int('Item units included before the large-load surcharge'),
  large_load_block_items: int('Units per surcharge block above the threshold'),
  per_large_load_block: credits('Per started block'),
});

const limits = record('Limits', "The organization's effective limits (GET /v1/limits).", {
  max_items_per_request: int('Item units per job'),
  max_vehicles_per_request: int('Vehicles per job, auto-added included'),
  max_time_limit_seconds: int('Compute budget per job (seconds)'),
  concurrency: int('Jobs computing at once'),
  max_queued_jobs: int('Jobs queued + running'),
  retention_days: int('Days bodies, results and PDF links are kept'),
  allowed_vehicle_types: {
    type: 'array',
    items: { type: 'string' },
    description: 'Vehicle types accepted in requests',
  },
  max_projects: int('Plan cap on saved projects'),
  max_saved_items: int('Plan cap on saved cargo items (templates)'),
  rate_limits: ref('RateLimits'),
  rate_card: ref('RateCard'),
});

const deleted = record(
  'Deleted',
  'Answer to DELETE of a vehicle, template, project or webhook endpoint (our extension).',
  {
    id: str('The deleted id'),
    object: {
      type: 'string',
      enum: ['vehicle', 'template', 'project', 'webhook_endpoint'],
      description: 'Kind of record',
    },
    deleted: { type: 'boolean', const: true, description: 'Always true' },
  },
);

/**
 * A deep copy of `schema` with every `#/$defs/X` reference rewritten to
 * `#/components/schemas/X`, without `$schema` and `$defs` (components hold those).
 */
export function liftDefs(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(liftDefs);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$schema' || key === '$defs') continue;
    out[key] =
      key === '$ref' && typeof value === 'string'
        ? value.replace(/^#\/\$defs\//, '#/components/schemas/')
        : liftDefs(value);
  }
  return out;
}

/** PackRequest and its `$defs` (Rect, Vehicle, Item, Group, Options) as component schemas. */
function packRequestComponents(): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = { PackRequest: liftDefs(PACK_REQUEST_SCHEMA) as JsonSchema };
  for (const [name, def] of Object.entries(PACK_REQUEST_SCHEMA.$defs)) out[name] = liftDefs(def) as JsonSchema;
  return out;
}

/** Every shared component schema by name. */
export function sharedSchemas(): Record<string, JsonSchema> {
  return {
    Error: errorEnvelope,
    ErrorDetail: errorDetail,
    Warning: warning,
    Job: job,
    JobProgress: jobProgress,
    JobSummary: jobSummary,
    JobCost: jobCost,
    JobError: jobError,
    CostBreakdown: costBreakdown,
    Result: result,
    ResultVehicle: resultVehicle,
    Placement: placement,
    UnplacedItem: unplacedItem,
    Point: point,
    AxleLoad: axleLoad,
    Estimate: estimate,
    CostRange: costRange,
    Balance: balance,
    Limits: limits,
    RateLimits: rateLimits,
    RateLimitWindows: rateLimitWindows,
    RateCard: rateCard,
    Deleted: deleted,
    ...packRequestComponents(),
  };
}
