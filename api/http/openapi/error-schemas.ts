/**
 * The error vocabulary in the OpenAPI document (spec Errors): detail codes, the status of every
 * code (api/http/error-status.ts), the codes every authenticated operation can answer, a short
 * meaning per code, and the Error envelope and ErrorDetail schemas (api/http/errors.ts sends them).
 */
import type { ErrorCode } from '../../../domain/errors.js';
import { ERROR_STATUS as STATUS_OF_CODE } from '../error-status.js';
import type { VerifyRule } from '../../../solver/verify/violation.js';
import { arrayOf, record, str } from './schema-builders.js';

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
 * Detail codes of a refused plan revision (POST /v1/jobs/{id}/revisions, our extension): an
 * operation that cannot apply, or a rule of the verifier the edited plan breaks (solver/verify).
 * A Record over the verifier's rules, so a rule without its code here does not compile; `pinned`
 * is the rule of pinned units (plan editing).
 */
const PLAN_RULES: Readonly<Record<VerifyRule | 'pinned', true>> = {
  vehicles: true,
  bounds: true,
  overlap: true,
  support: true,
  orientation: true,
  weight: true,
  stacking: true,
  stack_items: true,
  stack_weight: true,
  floor_load: true,
  stack_density: true,
  blocked_area: true,
  instances: true,
  steps: true,
  figures: true,
  axle_load: true,
  cog_range: true,
  group_routing: true,
  hazardous: true,
  aux_deck: true,
  pinned: true,
  pallets_on_cartons: true,
  heavy_on_light: true,
  max_slenderness: true,
};
export const PLAN_EDIT_DETAIL_CODES: readonly string[] = ['invalid_operation', ...Object.keys(PLAN_RULES)];

/**
 * HTTP status of every `error.code`: the service's one table (api/http/error-status.ts), here indexed by
 * any string for readers of the built document's codes.
 */
export const ERROR_STATUS: Readonly<Record<string, number>> = STATUS_OF_CODE;

/**
 * Codes every authenticated operation can answer (spec Authentication 5), and ours: `forbidden`
 * when the caller is the web app's session and a change lacks its CSRF token, and
 * `request_header_too_large` when the headers (an Authorization header, say) are over 16 KB and
 * `bad_request` when the request is not well-formed HTTP (both refused before any route).
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
  'request_header_too_large',
  'bad_request',
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
  not_found: 'No endpoint with this method and path, no such link, or no such plan revision',
  job_not_found: 'No such job in the organization',
  vehicle_not_found: 'No such preset or organization vehicle',
  template_not_found: 'No such template',
  project_not_found: 'No such project',
  job_not_finished: 'Job still queued or running (retry later)',
  project_busy: 'Project is being packed now (retry later)',
  job_failed: 'Job failed, no result; read job.error',
  job_canceled: 'Job canceled, no result',
  job_already_finished: 'Job ended, cannot be canceled',
  conflict:
    'The same Idempotency-Key is in use by a concurrent request (retry), or a plan revision was not made on the latest revision (reload it)',
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
  idempotency_key_pending:
    'A request with this Idempotency-Key and body is still creating its job; retry with the same key after Retry-After',
  request_header_too_large: 'The request headers are over 16 KB (e.g. an oversized Authorization header)',
  bad_request: 'The request is not well-formed HTTP',
};

export const errorDetail = record('ErrorDetail', 'One problem of a 400/422 answer.', {
  path: str(
    'JSON path of the field, such as `items[3].length`; "" for the whole body; a query parameter name for query problems',
  ),
  code: {
    type: 'string',
    enum: [...DETAIL_CODES, ...PLAN_EDIT_DETAIL_CODES],
    description:
      'Detail code (spec Errors, second table); a refused plan revision (our extension) has `invalid_operation` or the rule of the verifier the edited plan breaks',
  },
  message: str('English explanation'),
});

export const errorEnvelope = {
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
