/**
 * Shared component schemas of the OpenAPI document (JSON Schema 2020-12, as OpenAPI 3.1 uses):
 * the records several routes answer with (spec "Resources and their fields": Job, Result,
 * Estimate, Balance, Limits, the error envelope) and the PackRequest with its `$defs` lifted into
 * components. The error schemas are in ./error-schemas.ts, the job's in ./job-schemas.ts; the
 * account's are here, as api/http/routes/account.ts (Balance, Limits, RateCard) and
 * api/http/routes/estimate.ts (Estimate) send them.
 * Amounts are credits, lengths cm, weights kg, times ms unless a field says otherwise.
 */
import type { JsonSchema } from '../route-docs.js';
import { PACK_REQUEST_SCHEMA } from '../pack-request/schema.js';
import { ref, str, int, num, bool, nullableTime, credits, arrayOf, record, liftDefs } from './schema-builders.js';
import { errorDetail, errorEnvelope } from './error-schemas.js';
import {
  warning,
  point,
  placement,
  axleLoad,
  resultVehicle,
  unplacedItem,
  result,
  jobProgress,
  jobSummary,
  costBreakdown,
  jobCost,
  jobError,
  job,
} from './job-schemas.js';

export { ref, liftDefs } from './schema-builders.js';
export { AUTH_ERRORS, DETAIL_CODES, ERROR_MEANING, ERROR_STATUS } from './error-schemas.js';

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

/** PackRequest and its `$defs` (Rect, Vehicle, LoadedUnit, Item, Group, Options) as component schemas. */
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
