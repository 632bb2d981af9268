/**
 * What the saved-data resources (vehicles, templates, projects) share: the timestamp and author
 * fields of their records, the `{data, next_cursor}` list shape and its query parameters, and the
 * way a record body's problems become the spec's 400/422 answers.
 */
import type { SchemaValidator } from './schema-validator.js';
import type { ErrorDetail } from '../../domain/pack/diagnostics.js';
import type { PackRequest, VehicleType } from '../../domain/pack/request.js';
import { resolvePackRequest, type ResolveOutcome } from '../../domain/pack/resolve/resolve.js';
import { schemaProblem } from './pack-request/schema-problems.js';
import { ApiError } from './errors.js';
import type { JsonSchema, ParameterDoc } from './route-docs.js';

const timestamp = (description: string): JsonSchema => ({ type: ['string', 'null'], format: 'date-time', description });
const actor = (description: string): JsonSchema => ({
  type: ['object', 'null'],
  additionalProperties: false,
  required: ['id', 'name'],
  properties: { id: { type: 'string', description: 'Member id (usr_…)' }, name: { type: 'string' } },
  description,
});

/** Timestamps and authors of saved records (presets: null). */
export const RECORD_META_PROPERTIES: Record<string, JsonSchema> = {
  created_at: timestamp('RFC 3339; null for presets'),
  updated_at: timestamp('RFC 3339; null for presets'),
  created_by: actor('Member whose API key created it; null for presets'),
  updated_by: actor('Member whose API key changed it last; null for presets'),
};
/** Names of the timestamp and author fields every saved record carries. */
export const META = ['created_at', 'updated_at', 'created_by', 'updated_by'];

/** A `{data, next_cursor}` page of `record`s. */
export const listSchema = (title: string, record: string): JsonSchema => ({
  title,
  type: 'object',
  required: ['data', 'next_cursor'],
  properties: {
    data: { type: 'array', items: { $ref: `#/components/schemas/${record}` } },
    next_cursor: { type: 'string', description: 'Pass as `cursor` for the next page; "" on the last page' },
  },
});

/** Query parameters of the saved-data lists (api/http/paging.ts). */
export const LIST_PARAMETERS: ParameterDoc[] = [
  {
    name: 'limit',
    in: 'query',
    description: 'Page size, 1–100, default 20',
    schema: { type: 'integer', minimum: 1, maximum: 100 },
  },
  { name: 'cursor', in: 'query', description: 'next_cursor of the previous page', schema: { type: 'string' } },
  {
    name: 'q',
    in: 'query',
    description: 'Case-insensitive text to find (at most 200 characters)',
    schema: { type: 'string', maxLength: 200 },
  },
  {
    name: 'created_by',
    in: 'query',
    description: '`me` or a member id (usr_…): records that member created',
    schema: { type: 'string' },
  },
];

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Schema problems of `value`, with the spec's detail codes (api/http/pack-request/schema-problems.ts). */
export function schemaProblemsOf(validate: SchemaValidator, value: unknown): ErrorDetail[] {
  return validate(value) ? [] : (validate.errors ?? []).map((e, i) => schemaProblem(e, i < 50));
}

/**
 * The problems of a resolved probe request that concern `section[0]`, with paths made relative
 * to the record (`vehicles[0].blocked_areas[1].x` → `blocked_areas[1].x`). Generic "incomplete
 * definition" details are dropped: the schema reports those fields precisely.
 */
export function recordRuleProblems(outcome: ResolveOutcome, section: 'vehicles' | 'items'): ErrorDetail[] {
  if (outcome.ok || outcome.incomplete) return [];
  const prefix = `${section}[0]`;
  return outcome.details.flatMap((d) => {
    if (d.path === prefix) return [{ ...d, path: '' }];
    if (d.path.startsWith(`${prefix}.`)) return [{ ...d, path: d.path.slice(prefix.length + 1) }];
    if (d.path.startsWith(`${prefix}[`)) return [{ ...d, path: d.path.slice(prefix.length) }];
    return [];
  });
}

/**
 * The rule problems of one saved record (spec Vehicle and Item rules: aux deck, blocked areas,
 * axle arrays, cog ranges; length/width or radius by shape, nesting_height), found by resolving
 * `probe`, a pack request whose only `section` entry is the record, the other side a stand-in
 * that meets every rule. Paths are relative to the record (recordRuleProblems).
 */
export function probeProblems(
  probe: { vehicles: unknown[]; items: unknown[] },
  allowedVehicleTypes: readonly VehicleType[],
  section: 'vehicles' | 'items',
): ErrorDetail[] {
  const outcome = resolvePackRequest({ ...probe, options: { allow_overweight: true } } as unknown as PackRequest, {
    allowedVehicleTypes,
    maxItemsPerRequest: Number.MAX_SAFE_INTEGER,
    maxVehiclesPerRequest: Number.MAX_SAFE_INTEGER,
    maxTimeLimitSeconds: 90,
    axleAccess: true,
    findVehicle: () => undefined,
    findTemplate: () => undefined,
    seed: 1,
  });
  return recordRuleProblems(outcome, section);
}

/** `lists` concatenated, each (code, path) once, the first message kept. */
export function distinctProblems(...lists: ErrorDetail[][]): ErrorDetail[] {
  const seen = new Set<string>();
  return lists.flat().filter((d) => {
    const key = `${d.code}\u0000${d.path}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * Throws the spec's answer for `problems` of a `what` body (nothing when empty): 400
 * invalid_json when a field has the wrong JSON type, else 422 validation_failed; every problem
 * in details either way.
 */
export function refuseProblems(problems: ErrorDetail[], what: string): void {
  const n = problems.length;
  if (n === 0) return;
  const count = `${n} problem${n === 1 ? '' : 's'}`;
  if (problems.some((d) => d.code === 'invalid_json')) {
    throw new ApiError('invalid_json', `A field has the wrong JSON type (${count} in total; see details).`, problems);
  }
  throw new ApiError('validation_failed', `The ${what} is not valid: ${count} (see details).`, problems);
}

/** A body that is not a JSON object: 400 invalid_json. */
export function requireObject(body: unknown): Record<string, unknown> {
  if (isObject(body)) return body;
  throw new ApiError('invalid_json', 'The request body must be a JSON object.', [
    {
      path: '',
      code: 'invalid_json',
      message: `the body must be a JSON object, got ${Array.isArray(body) ? 'an array' : body === null ? 'null' : `a ${typeof body}`}`,
    },
  ]);
}
