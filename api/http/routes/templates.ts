/**
 * Saved cargo templates (spec Endpoints: GET/POST /v1/templates, GET/PATCH/DELETE
 * /v1/templates/{id}; saved data; Deleted; Item `template_id`): the saved-record routes
 * (api/http/routes/saved-records.ts) for templates, with the plan cap. Writes are events on
 * `template-<id>` streams; reads come from the `templates` projection.
 *
 * Record (`Template`): `{id: 'tpl_…', object: 'template', label, <every other Item field of the
 * spec that was set: shape, length, width, height, radius, weight, quantity, stackable,
 * max_stack_weight, rotation, hazardous, priority, group, color, nesting_height>, created_at,
 * updated_at, created_by: {id, name}, updated_by: {id, name}}`. `quantity` is the default
 * quantity of items made from the template (the item's own `quantity` overrides it, like every
 * field sent beside `template_id`).
 *
 * POST body (`TemplateInput`): the pack item shape without `id` and `template_id`; `label`,
 * `height` and `weight` required, `length` and `width` unless the shape is cylinder or drum,
 * which need `radius`; `nesting_height` below `height`. Creating a template beyond the plan's
 * cap (`max_saved_items` of GET /v1/limits) answers 403 plan_limit_reached.
 *
 * List: newest first; `q` matches label or id; `created_by` filters by creator.
 */
import { DEFAULT_LIMITS } from '../../../domain/organization/limits.js';
import { TEMPLATE_RECORD, type TemplateFields } from '../../../domain/template/template.js';
import { TEMPLATES, type TemplateDocument } from '../../../projections/templates/projection.js';
import { MAX_DIMENSION_CM, MAX_WEIGHT_KG, PACK_REQUEST_SCHEMA } from '../pack-request/schema.js';
import { ApiError } from '../errors.js';
import { probeProblems } from '../saved-record.js';
import { savedRecordRoutes } from './saved-records.js';

const {
  id: _id,
  template_id: _templateId,
  label: requestLabel,
  quantity: requestQuantity,
  ...otherItemFields
} = PACK_REQUEST_SCHEMA.$defs.Item.properties;

// The largest vehicle the schema allows, so the probe request only exercises the item rules of resolution.
const PROBE_VEHICLE = {
  id: 'probe',
  type: 'truck',
  length: MAX_DIMENSION_CM,
  width: MAX_DIMENSION_CM,
  height: MAX_DIMENSION_CM,
  max_weight: MAX_WEIGHT_KG,
};

/** Route module: router, OpenAPI docs and the component schemas Template, TemplateInput, TemplatePatch, TemplateList. */
export const templatesRoutes = savedRecordRoutes<'Template', 'templateId', TemplateFields>({
  kind: TEMPLATE_RECORD,
  path: '/v1/templates',
  object: 'template',
  idPrefix: 'tpl',
  collection: TEMPLATES,
  textField: 'label',
  // The fields of a template, from the PackRequest Item schema.
  fields: {
    label: { ...requestLabel, minLength: 1, description: 'Shown in lists, results and the PDF; 1–255 characters' },
    ...otherItemFields,
    quantity: {
      ...requestQuantity,
      description: 'Default quantity of items made from the template (1–10000); the item may override it',
    },
  },
  required: ['label', 'height', 'weight'],
  rules: ({ id: _i, template_id: _t, ...item }) =>
    probeProblems({ vehicles: [PROBE_VEHICLE], items: [item] }, ['truck'], 'items'),
  async refuseOverCap(services, caller) {
    // Counted on the read model: two creations racing at the cap can both pass and overshoot it
    // by one. Acceptable for a plan cap; exactness would need a per-organization counter stream.
    const cap = caller.org.limits.maxTemplates ?? DEFAULT_LIMITS.maxTemplates;
    const held = await services.reads
      .collection<TemplateDocument>(TEMPLATES)
      .count({ where: { orgId: caller.orgId, deleted: false } });
    if (held >= cap) {
      throw new ApiError(
        'plan_limit_reached',
        `the plan allows ${cap} saved cargo items (templates) and the organization holds ${held}; delete one or upgrade the plan`,
      );
    }
  },
  docs: {
    one: 'Template',
    many: 'Templates',
    recordTitle: 'Template',
    recordDescription: "One of the organization's cargo templates. Optional fields appear only when set.",
    inputDescription:
      'A cargo item to save, in the pack item shape without id and template_id. Sizes are outer package sizes in cm, ' +
      'weight is one unit in kg. length and width are required unless the shape is cylinder or drum, which need radius.',
    list: { summary: 'List cargo templates', description: 'Newest first. `q` matches label or id.' },
    get: { summary: 'Get a cargo template' },
    create: {
      summary: 'Save a cargo template',
      description: "403 plan_limit_reached when the organization already holds its plan's max_saved_items templates.",
    },
    update: {
      summary: 'Change a cargo template',
      description: 'The fields sent replace the saved ones; the result is checked as a whole.',
    },
    delete: {
      summary: 'Delete a cargo template',
      description: 'Pack requests naming a deleted template answer unknown_template.',
    },
  },
});
