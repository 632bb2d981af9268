/**
 * The 3D viewer of a plan (our extension), opened by the signed browser link
 * `viewer_url` (api/http/plan-links.ts; no Authorization header, valid until the job's `expires_at`):
 * - GET /viewer/{job}?expires=…&signature=…: the page (the viewer's build, api/http/front-ends.ts;
 *   503 `api_disabled` while it is not built);
 * - GET /viewer/{job}/plan.json?expires=…&signature=…: what the page draws (api/http/viewer-plan.ts),
 *   asked for with the page's own query;
 * - /viewer/assets/*: the page's scripts and styles (hashed names, cached for a year).
 * A bad, expired or PDF-purpose signature answers 404 `not_found`, a plan past retention 410
 * `result_expired`, in the spec's error envelope.
 */
import express, { Router } from 'express';
import { readJobBody } from '../../../domain/job/body.js';
import { ApiError } from '../errors.js';
import { VIEWER_BUILD, assetsOf, isBuilt, pageReader } from '../front-ends.js';
import { setNoStore, setPageSecurity } from '../page-security.js';
import { openSignedPlan } from '../plan-links.js';
import { ROUTER_OPTIONS, type RouteDoc, type RouteModule } from '../route-docs.js';
import type { Services } from '../services.js';
import { viewerPlan } from '../viewer-plan.js';
import { orgDisplayUnits } from '../org-display-units.js';

const jobOf = (param: unknown): string | undefined => /^job_[a-z0-9]+$/.exec(String(param))?.[0];

function viewerRouter(services: Services): Router {
  const router = Router(ROUTER_OPTIONS);
  if (!isBuilt(VIEWER_BUILD)) {
    services.log.warn(
      { dir: VIEWER_BUILD.dist },
      'the 3D viewer is not built (npm run build): viewer links answer 503 until it is',
    );
  }
  const page = pageReader(VIEWER_BUILD);

  router.use(
    '/viewer/assets',
    express.static(assetsOf(VIEWER_BUILD), { index: false, immutable: true, maxAge: '365d', redirect: false }),
  );

  router.get('/viewer/:job', async (req, res) => {
    await openSignedPlan(services, 'viewer', jobOf(req.params['job']), req.query);
    const html = page();
    // Links are signed and short-lived: no cache keeps the page or its plan.
    setNoStore(res);
    // The web app (same origin) embeds the viewer on its playground and job pages.
    setPageSecurity(res, 'viewer');
    res.type('text/html').send(html);
  });

  router.get('/viewer/:job/plan.json', async (req, res) => {
    const job = await openSignedPlan(services, 'viewer', jobOf(req.params['job']), req.query);
    const body = await readJobBody(services.store, job.id);
    const plan = body.result?.plan;
    if (!plan) throw new ApiError('result_expired', 'the plan is no longer stored');
    setNoStore(res);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.json(
      viewerPlan({
        jobId: job.id,
        reference: job.reference,
        createdAt: job.createdAt,
        expiresAt: job.expiresAt,
        plan,
        model: body.request?.model ?? null,
        requestGroups: body.request?.request.groups ?? [],
        warnings: job.warnings,
        displayUnits: await orgDisplayUnits(services, job.orgId),
      }),
    );
  });
  return router;
}

const LINK_PARAMETERS: RouteDoc['parameters'] = [
  {
    name: 'job',
    in: 'path',
    required: true,
    description: 'The job (`job_…`)',
    schema: { type: 'string', pattern: '^job_[a-z0-9]+$' },
  },
  {
    name: 'expires',
    in: 'query',
    required: true,
    description: 'Expiry of the link (Unix time, seconds), as issued in `viewer_url`',
    schema: { type: 'string' },
  },
  {
    name: 'signature',
    in: 'query',
    required: true,
    description: 'Signature of the link, as issued in `viewer_url`',
    schema: { type: 'string' },
  },
];

const EXTENSION = 'Our extension (not in the spec).';

/** Route module: router, OpenAPI docs and the ViewerPlan schemas. */
export const planViewerRoutes: RouteModule = {
  router: viewerRouter,
  docs: [
    {
      method: 'get',
      path: '/viewer/{job}',
      operationId: 'getPlanViewer',
      summary: 'The load plan in an interactive 3D viewer (signed browser link)',
      description: `${EXTENSION} The link of \`viewer_url\`: a web page (three.js, served by this service, no CDN) showing every loaded vehicle in 3D with orbit, pan and zoom, a step slider and play button for the loading order, colours by item colour, item or group with a legend, unit details on click, walls, door side, blocked areas, the second deck, the centre of gravity, the weight per metre of length and the unplaced units with their reasons. No Authorization header; the signature proves the link was issued by the service (a \`pdf_url\` signature does not open it). Valid until the job's \`expires_at\`.`,
      tags: ['Jobs'],
      scopes: [],
      parameters: LINK_PARAMETERS,
      responses: {
        '200': {
          description: 'The viewer page; it loads /viewer/{job}/plan.json with the same query',
          contentType: 'text/html',
          schema: { type: 'string' },
        },
      },
      errors: ['not_found', 'result_expired'],
    },
    {
      method: 'get',
      path: '/viewer/{job}/plan.json',
      operationId: 'getPlanViewerData',
      summary: 'The plan as the 3D viewer draws it (signed browser link)',
      description: `${EXTENSION} What the viewer page of \`viewer_url\` loads, with the page's own \`expires\` and \`signature\`: the Result's vehicles (each with its blocked areas and second deck) and unplaced units, every item definition with its colour and group, and the groups.`,
      tags: ['Jobs'],
      scopes: [],
      parameters: LINK_PARAMETERS,
      responses: {
        '200': { description: 'The plan for the viewer', schema: { $ref: '#/components/schemas/ViewerPlan' } },
      },
      errors: ['not_found', 'result_expired'],
    },
  ],
  schemas: {
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
      ],
      properties: {
        job_id: { type: 'string', description: 'The job (`job_…`)' },
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
  },
};
