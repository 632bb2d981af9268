/**
 * The `result` of a POST /v1/plans/verify body: a Result (GET /v1/jobs/{id}/result), edited or
 * not, read down to its layout (solver/edit/layout.ts): per vehicle its definition id, copy and
 * units (item id, instance, min corner in cm, orientation), and the unplaced units with their
 * reasons. Every other field (figures, steps, labels, links…) may be there and is ignored: the
 * plan is rebuilt from the layout. Problems are reported with paths under `result`
 * (`result.vehicles[0].placements[3].x`).
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { validatorOnFirstUse } from '../schema-validator.js';
import type { ErrorDetail } from '../../../domain/pack/diagnostics.js';
import type { OrgLimits } from '../../../domain/organization/limits.js';
import { ALL_ORIENTATIONS } from '../../../domain/pack/plan.js';
import { layoutOf, type Layout } from '../../../solver/edit/layout.js';
import { UNPLACED_REASONS } from '../../../solver/verify/instances.js';
import { schemaProblem } from '../pack-request/schema-problems.js';
import type { JsonSchema } from '../route-docs.js';

const unit = (what: string): Record<string, JsonSchema> => ({
  item_id: { type: 'string', minLength: 1, description: `Item definition id of the ${what}` },
  instance: { type: 'integer', minimum: 1, description: '1-based unit number within the item definition' },
});

const coordinate = (description: string): JsonSchema => ({ type: 'number', description });

/**
 * JSON Schema (2020-12) of what is read of the `result`; other fields are allowed and ignored.
 * Also the `result` property of the PlanVerifyRequest component in the OpenAPI document.
 */
export const RESULT_LAYOUT_SCHEMA: JsonSchema = {
  type: 'object',
  description:
    'A Result as GET /v1/jobs/{id}/result answers it, edited or not. Only the fields listed here are read; every other field ' +
    '(figures, steps, labels, sizes, links…) may be sent and is ignored: the plan is rebuilt from the units and the request.',
  required: ['vehicles'],
  properties: {
    vehicles: {
      type: 'array',
      description: 'Vehicles in loading order',
      items: {
        type: 'object',
        required: ['vehicle_id', 'copy', 'placements'],
        properties: {
          vehicle_id: { type: 'string', description: 'Request vehicle definition id' },
          copy: { type: 'integer', minimum: 1, description: '1-based copy of that definition' },
          index: { type: 'integer', description: 'Ignored (vehicles are indexed in the order listed)' },
          placements: {
            type: 'array',
            description: 'The units in this vehicle',
            items: {
              type: 'object',
              required: ['item_id', 'instance', 'x', 'y', 'z', 'orientation'],
              properties: {
                ...unit('unit'),
                x: coordinate('Min corner, from the front wall (cm)'),
                y: coordinate('Min corner, up from the floor (cm)'),
                z: coordinate('Min corner, from the right wall (cm)'),
                orientation: {
                  type: 'string',
                  enum: [...ALL_ORIENTATIONS],
                  description: 'Which defined sides lie along x, z, y',
                },
              },
            },
          },
        },
      },
    },
    unplaced: {
      type: 'array',
      description: 'Units left out, with the reason to report; every unit not placed is unplaced whether listed or not',
      items: {
        type: 'object',
        required: ['item_id', 'instance'],
        properties: {
          ...unit('unit'),
          reason: { type: 'string', enum: [...UNPLACED_REASONS], description: 'Reason reported for the unit' },
        },
      },
    },
  },
};

const validate = validatorOnFirstUse(() =>
  new Ajv2020({ allErrors: true, strict: true, verbose: true }).compile<Layout>(RESULT_LAYOUT_SCHEMA),
);

/** A read `result`: its layout, or the problems found (paths under `result`). */
export type ResultLayoutOutcome = { ok: true; layout: Layout } | { ok: false; details: ErrorDetail[] };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A detail path inside the body field `root`: (`result`, `vehicles[0].x`) → `result.vehicles[0].x`; (`result`, ``) → `result`. */
export function pathUnder(root: string, path: string): string {
  return path === '' ? root : path.startsWith('[') ? `${root}${path}` : `${root}.${path}`;
}

/**
 * The counts a verified result may hold, the limits of a pack request (spec Limits): at most
 * `maxItemsPerRequest` placements in all (and as many unplaced entries), at most
 * `maxVehiclesPerRequest` vehicles (auto-added ones included). Checked before the schema, so an
 * oversized result costs no per-unit work.
 */
function countProblems(result: Record<string, unknown>, limits: OrgLimits): ErrorDetail[] {
  const out: ErrorDetail[] = [];
  const vehicles = Array.isArray(result['vehicles']) ? (result['vehicles'] as unknown[]) : [];
  if (vehicles.length > limits.maxVehiclesPerRequest) {
    out.push({
      path: 'result.vehicles',
      code: 'too_many_vehicles',
      message: `the result has ${vehicles.length} vehicles; the limit is ${limits.maxVehiclesPerRequest} per job, auto-added vehicles included`,
    });
  }
  const placed = vehicles.reduce<number>(
    (n, v) => n + (isObject(v) && Array.isArray(v['placements']) ? v['placements'].length : 0),
    0,
  );
  if (placed > limits.maxItemsPerRequest) {
    out.push({
      path: 'result.vehicles',
      code: 'too_many_items',
      message: `the result places ${placed} units; the limit is ${limits.maxItemsPerRequest} item units per job`,
    });
  }
  const unplaced = Array.isArray(result['unplaced']) ? result['unplaced'].length : 0;
  if (unplaced > limits.maxItemsPerRequest) {
    out.push({
      path: 'result.unplaced',
      code: 'too_many_items',
      message: `the result lists ${unplaced} unplaced units; the limit is ${limits.maxItemsPerRequest} item units per job`,
    });
  }
  return out;
}

/**
 * Reads the `result` of a verify body into a Layout (only the read fields, copied). Problems:
 * not an object (`invalid_json` at `result`), counts over the organization's limits
 * (`too_many_vehicles`, `too_many_items`), and schema problems with the pack request's detail
 * codes (`required`, `invalid_json` for a wrong type, `invalid_value`, `out_of_range`). Never throws.
 */
export function readResultLayout(result: unknown, limits: OrgLimits): ResultLayoutOutcome {
  if (!isObject(result)) {
    return {
      ok: false,
      details: [
        {
          path: 'result',
          code: result === undefined ? 'required' : 'invalid_json',
          message: result === undefined ? 'result is required' : 'result must be an object (a Result)',
        },
      ],
    };
  }
  const tooMany = countProblems(result, limits);
  if (tooMany.length > 0) return { ok: false, details: tooMany };
  if (!validate(result)) {
    return {
      ok: false,
      details: (validate.errors ?? []).map((e) => {
        const d = schemaProblem(e, false);
        return { ...d, path: pathUnder('result', d.path) };
      }),
    };
  }
  // Only the fields read: steps and figures are recomputed.
  return { ok: true, layout: layoutOf(result, { steps: false }) };
}
