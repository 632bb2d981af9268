/**
 * The shape of the 3D viewer's plan (our extension): the JSON Schemas of ViewerPlan and its parts
 * (ViewerVehicle, ViewerItem, ViewerGroup, ViewerModel), as GET /viewer/{job}/plan.json answers it
 * (api/http/plan-viewer/viewer-plan.ts writes it) and the OpenAPI document shows it. Lengths cm, weights kg.
 */
import type { JsonSchema } from '../route-docs.js';

/** The opening of every viewer description in the OpenAPI document. */
export const EXTENSION = 'Our extension (not in the spec).';

/** The component schemas of the viewer's plan, by name (`#/components/schemas/<name>`). */
export const VIEWER_PLAN_SCHEMAS: Record<string, JsonSchema> = {
  ViewerPlan: {
    title: 'ViewerPlan',
    description: `${EXTENSION} The plan of a succeeded job as the 3D viewer draws it. Lengths cm, weights kg.`,
    type: 'object',
    required: [
      'job_id',
      'reference',
      'created_at',
      'expires_at',
      'vehicles',
      'unplaced',
      'items',
      'groups',
      'warnings',
      'display_units',
      'revision',
      'model',
    ],
    properties: {
      job_id: { type: 'string', description: 'The job (`job_…`)' },
      revision: {
        type: 'integer',
        minimum: 0,
        description: "Which revision of the job's plan this is: 0 = the plan the job made, N = revision N",
      },
      reference: { type: ['string', 'null'], description: "Caller's reference from the request, or null" },
      created_at: { type: 'string', format: 'date-time', description: 'When the job was created' },
      expires_at: { type: 'string', format: 'date-time', description: 'The link and this document are deleted then' },
      vehicles: {
        type: 'array',
        items: { $ref: '#/components/schemas/ViewerVehicle' },
        description: 'Loaded vehicles in loading order',
      },
      unplaced: {
        type: 'array',
        items: { $ref: '#/components/schemas/UnplacedItem' },
        description: 'Units that could not be placed, with the reason',
      },
      items: {
        type: 'array',
        items: { $ref: '#/components/schemas/ViewerItem' },
        description: 'Every item definition of the job, placed or not',
      },
      groups: {
        type: 'array',
        items: { $ref: '#/components/schemas/ViewerGroup' },
        description: 'Item groups in loading order',
      },
      warnings: {
        type: 'array',
        items: { $ref: '#/components/schemas/Warning' },
        description: 'Remarks about the plan',
      },
      display_units: {
        type: 'string',
        enum: ['metric', 'imperial'],
        description:
          "How the viewer shows lengths and weights: the organization's display units (metric: cm, kg; imperial: in, lb). The figures of this document stay cm and kg.",
      },
      model: {
        oneOf: [{ $ref: '#/components/schemas/ViewerModel' }, { type: 'null' }],
        description:
          "The job's request resolved into plain numbers, so the viewer's edit mode checks a changed plan with the service's own verifier; null when the request is not stored",
      },
    },
  },
  ViewerModel: {
    title: 'ViewerModel',
    description: `${EXTENSION} A pack request resolved into plain numbers (presets, templates, overrides and defaults applied): what the solver and the plan verifier read. Lengths cm, weights kg, times ms. Field names are the service's own (camelCase).`,
    type: 'object',
    required: [
      'vehicles',
      'items',
      'packingMode',
      'maxVehicles',
      'allowOverweight',
      'maxStackItems',
      'maxStackDensity',
      'enforceAxle',
      'groupRouting',
    ],
    properties: {
      vehicles: {
        type: 'array',
        description: 'Vehicle definitions (`id`, size, `maxWeight`, `quantity`, `blockedAreas`, `auxDeck`, `axles`…)',
        items: {
          type: 'object',
          required: ['id', 'name', 'length', 'width', 'height', 'maxWeight', 'quantity'],
          properties: {
            id: { type: 'string', description: 'vehicle_id of the Result' },
            name: { type: 'string' },
            length: { type: 'number', description: 'cm, along x' },
            width: { type: 'number', description: 'cm, along z' },
            height: { type: 'number', description: 'cm, along y' },
            maxWeight: { type: 'number', description: 'Payload, kg' },
            quantity: { type: 'integer', description: 'Copies listed' },
          },
        },
      },
      items: {
        type: 'array',
        description: 'Item definitions with their allowed orientations, in preference order',
        items: {
          type: 'object',
          required: ['id', 'length', 'width', 'height', 'weight', 'quantity', 'orientations'],
          properties: {
            id: { type: 'string', description: 'item_id of the Result' },
            length: { type: 'number', description: 'cm, as defined' },
            width: { type: 'number', description: 'cm, as defined' },
            height: { type: 'number', description: 'cm, as defined' },
            weight: { type: 'number', description: 'kg, one unit' },
            quantity: { type: 'integer', description: 'Units requested' },
            orientations: {
              type: 'array',
              items: { type: 'string', enum: ['lwh', 'wlh', 'lhw', 'hwl', 'whl', 'hlw'] },
              description: 'Allowed orientations (spec Placement.orientation), never empty',
            },
          },
        },
      },
      packingMode: { type: 'string', enum: ['auto', 'fleet_only'] },
      maxVehicles: { type: 'integer', description: 'Most vehicles the plan may use' },
      allowOverweight: { type: 'boolean' },
      maxStackItems: { type: 'integer', description: 'Units in one stack, 0 = unlimited' },
      maxStackDensity: { type: 'number', description: 'kg/m² of a stack, 0 = unlimited' },
      enforceAxle: { type: 'boolean' },
      groupRouting: { type: 'string', enum: ['none', 'wall', 'routing', 'no_stack'] },
    },
  },
  ViewerVehicle: {
    title: 'ViewerVehicle',
    description: `${EXTENSION} A ResultVehicle with its floor zones and second deck.`,
    allOf: [
      { $ref: '#/components/schemas/ResultVehicle' },
      {
        type: 'object',
        required: ['blocked_areas', 'aux_deck'],
        properties: {
          blocked_areas: {
            type: 'array',
            items: { $ref: '#/components/schemas/Rect' },
            description: 'Floor zones nothing may stand on (cm)',
          },
          aux_deck: {
            oneOf: [
              {
                type: 'object',
                required: ['height', 'max_weight'],
                properties: {
                  height: { type: 'number', description: 'Deck floor height (cm)' },
                  max_weight: { type: 'number', description: 'kg the deck carries' },
                },
              },
              { type: 'null' },
            ],
            description: 'The second deck, or null',
          },
        },
      },
    ],
  },
  ViewerItem: {
    title: 'ViewerItem',
    description: `${EXTENSION} An item definition (SKU) as the viewer shows it.`,
    type: 'object',
    required: [
      'id',
      'label',
      'shape',
      'length',
      'width',
      'height',
      'weight',
      'quantity',
      'group',
      'color',
      'hazardous',
    ],
    properties: {
      id: { type: 'string', description: 'item_id of its placements' },
      label: { type: 'string' },
      shape: { type: 'string', enum: ['box', 'cylinder', 'pallet', 'bag', 'drum'] },
      length: { type: 'number', description: 'cm, as defined' },
      width: { type: 'number', description: 'cm, as defined' },
      height: { type: 'number', description: 'cm, as defined' },
      weight: { type: 'number', description: 'kg, one unit' },
      quantity: { type: 'integer', description: 'Units requested' },
      group: { type: ['string', 'null'], description: 'Group name, or null' },
      color: {
        type: ['string', 'null'],
        description:
          '`#rrggbb` given for the item or its group, else null (the viewer picks a palette colour like the PDF)',
      },
      hazardous: { type: 'boolean' },
    },
  },
  ViewerGroup: {
    title: 'ViewerGroup',
    description: `${EXTENSION} An item group.`,
    type: 'object',
    required: ['name', 'order', 'color'],
    properties: {
      name: { type: 'string' },
      order: { type: 'integer', description: 'Lower = loaded first (deeper)' },
      color: { type: ['string', 'null'], description: '`#rrggbb` given, else null' },
    },
  },
};
