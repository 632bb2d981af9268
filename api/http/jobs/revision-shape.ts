/**
 * The JSON Schemas of plan revisions (plan editing, our extension): the POST body
 * `PlanRevisionInput` with its `EditOperation`s (the four operations of solver/edit/operations.ts),
 * which ajv validates with, and the answers `PlanRevision`, `PlanRevisionCreated` and
 * `PlanRevisionList`; one source for the route and the OpenAPI document. Lengths cm.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { validatorOnFirstUse } from '../schema-validator.js';
import { ALL_ORIENTATIONS } from '../../../domain/pack/plan.js';
import type { ErrorDetail } from '../../../domain/pack/diagnostics.js';
import { schemaProblem } from '../pack-request/schema-problems.js';
import type { JsonSchema } from '../route-docs.js';

/** The opening of every revision description in the OpenAPI document. */
export const EXTENSION = 'Our extension (not in the spec).';

/** Most operations in one revision. */
export const MAX_OPERATIONS = 2000;

/** Largest |x|, |y|, |z| an operation may name, cm (far beyond any vehicle: the verifier reports `bounds`). */
const MAX_COORDINATE = 1_000_000;

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
const coordinate = (axis: string): JsonSchema => ({
  type: 'number',
  minimum: -MAX_COORDINATE,
  maximum: MAX_COORDINATE,
  description: `${axis} of the unit's min corner in the vehicle, cm`,
});
const itemId: JsonSchema = { type: 'string', minLength: 1, maxLength: 255, description: 'Result item_id' };
const instance: JsonSchema = {
  type: 'integer',
  minimum: 1,
  maximum: 1_000_000,
  description: 'Unit of the item, 1-based (Result instance)',
};

const unit: JsonSchema = {
  title: 'PlanUnit',
  description: `${EXTENSION} One unit of a plan: its item and instance.`,
  type: 'object',
  additionalProperties: false,
  required: ['item_id', 'instance'],
  properties: { item_id: itemId, instance },
};

const moveOrPlace: JsonSchema = {
  title: 'MoveOperation',
  description:
    "`move` a placed unit, or `place` an unplaced one, into a vehicle of the base revision's Result (`vehicle`: its index there, 0-based) at a position (min corner, cm) and orientation the item allows.",
  type: 'object',
  additionalProperties: false,
  required: ['op', 'item_id', 'instance', 'vehicle', 'x', 'y', 'z', 'orientation'],
  properties: {
    op: { enum: ['move', 'place'] },
    item_id: itemId,
    instance,
    vehicle: {
      type: 'integer',
      minimum: 0,
      maximum: 100_000,
      description: "Index of the vehicle in the base revision's Result `vehicles`",
    },
    x: coordinate('Position along the length (x)'),
    y: coordinate('Height above the floor (y, vertical)'),
    z: coordinate('Position across the width (z)'),
    orientation: {
      enum: [...ALL_ORIENTATIONS],
      description:
        'As Placement.orientation: `lwh` as defined, `wlh` turned about the vertical axis, the others tipped',
    },
  },
};

const remove: JsonSchema = {
  title: 'RemoveOperation',
  description: '`remove` a placed unit: it becomes unplaced.',
  type: 'object',
  additionalProperties: false,
  required: ['op', 'item_id', 'instance'],
  properties: { op: { const: 'remove' }, item_id: itemId, instance },
};

const swap: JsonSchema = {
  title: 'SwapOperation',
  description:
    "`swap` two units: each takes the other's vehicle and position and keeps its orientation; with an unplaced one, the placed one becomes unplaced and the other takes its place (turned like it when its item allows, else its first allowed orientation).",
  type: 'object',
  additionalProperties: false,
  required: ['op', 'a', 'b'],
  properties: { op: { const: 'swap' }, a: ref('PlanUnit'), b: ref('PlanUnit') },
};

const operation: JsonSchema = {
  title: 'EditOperation',
  description: `${EXTENSION} One edit of a plan revision, applied in order to the base revision.`,
  type: 'object',
  required: ['op'],
  properties: { op: { enum: ['move', 'place', 'remove', 'swap'], description: 'Which edit' } },
  discriminator: { propertyName: 'op' },
  oneOf: [ref('MoveOperation'), ref('RemoveOperation'), ref('SwapOperation')],
};

const input: JsonSchema = {
  title: 'PlanRevisionInput',
  description: `${EXTENSION} Edits of the latest revision of a job's plan.`,
  type: 'object',
  additionalProperties: false,
  required: ['base_revision', 'operations'],
  properties: {
    base_revision: {
      type: 'integer',
      minimum: 0,
      maximum: 999_999_999,
      description: "The revision edited: the latest (0: the job's own plan); another answers 409 `conflict`",
    },
    operations: {
      type: 'array',
      minItems: 1,
      maxItems: MAX_OPERATIONS,
      items: ref('EditOperation'),
      description: `The edits, applied in order (1–${MAX_OPERATIONS})`,
    },
  },
};

const actor: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'name'],
  properties: { id: { type: 'string', description: 'Member id (usr_…)' }, name: { type: 'string' } },
  description: 'Member whose API key or web app session saved it',
};

const revisionProperties: Record<string, JsonSchema> = {
  revision: { type: 'integer', minimum: 1, description: "Revision number: 1, 2, … (0 is the job's own plan)" },
  created_at: { type: 'string', format: 'date-time', description: 'RFC 3339' },
  created_by: actor,
  base_revision: { type: 'integer', minimum: 0, description: 'The revision it was edited from' },
  operations_count: { type: 'integer', minimum: 1, description: 'How many operations made it' },
};
const REVISION_FIELDS = ['revision', 'created_at', 'created_by', 'base_revision', 'operations_count'];

const revision: JsonSchema = {
  title: 'PlanRevision',
  description: `${EXTENSION} A saved revision of a job's plan.`,
  type: 'object',
  required: REVISION_FIELDS,
  properties: revisionProperties,
};

const created: JsonSchema = {
  title: 'PlanRevisionCreated',
  description: `${EXTENSION} A revision just saved, with its Result (the edited plan, verified; its own \`pdf_url\` and \`viewer_url\`).`,
  type: 'object',
  required: [...REVISION_FIELDS, 'result'],
  properties: { ...revisionProperties, result: ref('Result') },
};

const list: JsonSchema = {
  title: 'PlanRevisionList',
  description: `${EXTENSION} A page of a job's revisions, newest first.`,
  type: 'object',
  required: ['data', 'next_cursor'],
  properties: {
    data: { type: 'array', items: ref('PlanRevision') },
    next_cursor: { type: 'string', description: 'Pass as `cursor` for the next page; "" on the last page' },
  },
};

/** Component schemas by name. */
export const REVISION_SCHEMAS: Record<string, JsonSchema> = {
  PlanUnit: unit,
  MoveOperation: moveOrPlace,
  RemoveOperation: remove,
  SwapOperation: swap,
  EditOperation: operation,
  PlanRevisionInput: input,
  PlanRevision: revision,
  PlanRevisionCreated: created,
  PlanRevisionList: list,
};

/** `#/components/schemas/X` refs made local `#/$defs/X`, so ajv compiles the input on its own. */
const lowerRefs = (schema: unknown): unknown =>
  JSON.parse(JSON.stringify(schema).replaceAll('#/components/schemas/', '#/$defs/')) as unknown;

const validate = validatorOnFirstUse(() =>
  new Ajv2020({ allErrors: true, strict: true, verbose: true, discriminator: true }).compile({
    ...(lowerRefs(input) as JsonSchema),
    $defs: lowerRefs({
      PlanUnit: unit,
      MoveOperation: moveOrPlace,
      RemoveOperation: remove,
      SwapOperation: swap,
      EditOperation: operation,
    }) as JsonSchema,
  }),
);

/**
 * The problems of a POST body against PlanRevisionInput ([] when valid), as the spec's details
 * (first 50 with suggestions). The discriminator's own errors are left out: a missing or unknown
 * `op` is reported by `required` and `enum` already.
 */
export function revisionInputProblems(body: unknown): ErrorDetail[] {
  if (validate(body)) return [];
  return (validate.errors ?? []).filter((e) => e.keyword !== 'discriminator').map((e, i) => schemaProblem(e, i < 50));
}
