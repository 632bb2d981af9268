/**
 * Validation of the POST /v1/pack and POST /v1/estimate body: JSON Schema (schema.ts, compiled
 * once, on first use) plus the semantic rules of domain/pack/resolve/resolve.ts, answered in one pass
 * with every problem (spec Errors: "`details[]` lists every problem").
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import type { ErrorDetail, Warning } from '../../../domain/pack/diagnostics.js';
import type { PackRequest } from '../../../domain/pack/request.js';
import type { PackModel } from '../../../domain/pack/plan.js';
import { resolvePackRequest, type ResolveContext } from '../../../domain/pack/resolve/resolve.js';
import { PACK_REQUEST_SCHEMA } from './schema.js';
import { validatorOnFirstUse } from '../schema-validator.js';
import { pinnedProblems } from './pinned-admission.js';
import { schemaProblem, jsonTypeOf } from './schema-problems.js';
import { documentOrder } from './detail-path.js';
import { DEFAULT_LIMITS } from '../../../domain/organization/limits.js';
import { findPreset } from '../../../domain/vehicle/presets.js';

const validate = validatorOnFirstUse(() => {
  const ajv = new Ajv2020({ allErrors: true, strict: true, verbose: true });
  // ajv-formats is CommonJS: its default export arrives as the module object under NodeNext.
  ajvFormats.default(ajv);
  return ajv.compile(PACK_REQUEST_SCHEMA);
});

/** Unknown fields that get a "did you mean" hint, per body (bounds the work on hostile bodies). */
const SUGGESTIONS = 200;

/** The organization facts validation needs; the same as resolution's. */
export type CheckContext = ResolveContext;

/**
 * The context of scripts and benchmarks that check requests outside any organization: the
 * default limits, preset vehicles only, no templates, no axle access, seed 1.
 */
export const SCRIPT_CHECK_CONTEXT: CheckContext = {
  allowedVehicleTypes: DEFAULT_LIMITS.allowedVehicleTypes,
  maxItemsPerRequest: DEFAULT_LIMITS.maxItemsPerRequest,
  maxVehiclesPerRequest: DEFAULT_LIMITS.maxVehiclesPerRequest,
  maxTimeLimitSeconds: DEFAULT_LIMITS.maxTimeLimitSeconds,
  axleAccess: false,
  findVehicle: findPreset,
  findTemplate: () => undefined,
  seed: 1,
};

/** Outcome of checkPackRequest: an accepted request with its model, or the error answer. */
export type CheckOutcome =
  | { ok: true; request: PackRequest; model: PackModel; warnings: Warning[]; items: number; minVehicles: number }
  | {
      ok: false;
      status: 400 | 422;
      code: 'invalid_json' | 'validation_failed';
      message: string;
      details: ErrorDetail[];
    };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Checks a parsed request body against the spec and resolves it.
 *
 * Rules:
 * - Body not a JSON object (array, string, number, null…) → 400 `invalid_json`, one detail at
 *   the root path.
 * - Otherwise every problem is collected: schema problems (see schema-problems.ts for the
 *   keyword → detail code mapping) and the semantic ones of resolvePackRequest (saved vehicles,
 *   templates, conditional requirements, ids, groups, limits, does_not_fit); then, once all
 *   of that holds, the pinned units (Vehicle.loaded) checked alone by the plan verifier
 *   (pinned-admission.ts).
 * - If any field has the wrong JSON type (a string where a number is due, null, an object for an
 *   array…) → 400 `invalid_json` (spec: "a field has the wrong type"); its details list EVERY
 *   problem found, type problems with detail code `invalid_json`, the others with their own.
 * - Else any problem → 422 `validation_failed` with every problem.
 * - Else ok with the resolved model, warnings, total item units and the fewest vehicles.
 *
 * Paths are written like `items[3].length`, `vehicles[0].blocked_areas[2].x`,
 * `options.time_limit`; the root is the empty string ``. Details come in document order
 * (reference, vehicles, items, groups, options, unknown fields), an exact repeat (same path and
 * code) only once. Never throws for any value of `body`.
 */
export function checkPackRequest(body: unknown, ctx: CheckContext): CheckOutcome {
  if (!isObject(body)) {
    const detail: ErrorDetail = {
      path: '',
      code: 'invalid_json',
      message: `the body must be a JSON object, got ${jsonTypeOf(body)}`,
    };
    return {
      ok: false,
      status: 400,
      code: 'invalid_json',
      message: 'The request body must be a JSON object.',
      details: [detail],
    };
  }
  const schemaOk = validate(body);
  const fromSchema = schemaOk ? [] : (validate.errors ?? []).map((e, i) => schemaProblem(e, i < SUGGESTIONS));
  const resolved = resolvePackRequest(body as unknown as PackRequest, ctx);
  // Pinned units (Vehicle.loaded) that break a packing rule by themselves: no plan can keep them.
  const pinned = schemaOk && resolved.ok ? pinnedProblems(resolved.model) : [];
  if (schemaOk && resolved.ok && pinned.length === 0) {
    return {
      ok: true,
      request: body as unknown as PackRequest,
      model: resolved.model,
      warnings: resolved.warnings,
      items: resolved.items,
      minVehicles: resolved.minVehicles,
    };
  }
  // Generic "incomplete definition" details only stand in for schema problems; drop them when those are known.
  const fromRules = resolved.ok ? pinned : resolved.incomplete && fromSchema.length > 0 ? [] : resolved.details;
  const seen = new Set<string>();
  const details = [...fromSchema, ...fromRules]
    .filter((d) => {
      const key = `${d.code}\u0000${d.path}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .map((d, i) => ({ d, i, k: documentOrder(d.path) }))
    .sort((a, b) => a.k[0] - b.k[0] || a.k[1] - b.k[1] || a.i - b.i)
    .map(({ d }) => d);
  const n = details.length;
  const problems = `${n} problem${n === 1 ? '' : 's'}`;
  if (details.some((d) => d.code === 'invalid_json')) {
    return {
      ok: false,
      status: 400,
      code: 'invalid_json',
      message: `A field has the wrong JSON type (${problems} in total; see details).`,
      details,
    };
  }
  return {
    ok: false,
    status: 422,
    code: 'validation_failed',
    message: `The request is not a valid job: ${problems} (see details).`,
    details,
  };
}
