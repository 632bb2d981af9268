/** The OpenAPI operations of the 3D viewer's signed links (our extension): the page and its plan.json. */
import type { RouteDoc } from '../route-docs.js';
import { EXTENSION } from './shape.js';

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
    name: 'revision',
    in: 'query',
    description: 'Plan revision, as issued in the `viewer_url` of a revision (signed with the link)',
    schema: { type: 'string', pattern: '^[0-9]{1,9}$' },
  },
  {
    name: 'signature',
    in: 'query',
    required: true,
    description: 'Signature of the link, as issued in `viewer_url`',
    schema: { type: 'string' },
  },
];

/** The OpenAPI operations of GET /viewer/{job} and GET /viewer/{job}/plan.json. */
export const PLAN_VIEWER_DOCS: RouteDoc[] = [
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
    errors: ['not_found', 'result_expired', 'account_inactive'],
  },
  {
    method: 'get',
    path: '/viewer/{job}/plan.json',
    operationId: 'getPlanViewerData',
    summary: 'The plan as the 3D viewer draws it (signed browser link)',
    description: `${EXTENSION} What the viewer page of \`viewer_url\` loads, with the page's own \`expires\` and \`signature\`: the Result's vehicles (each with its blocked areas and second deck) and unplaced units, every item definition with its colour and group, the groups, which revision of the plan it is and the resolved model (so the viewer's edit mode can check changes with the service's verifier).`,
    tags: ['Jobs'],
    scopes: [],
    parameters: LINK_PARAMETERS,
    responses: {
      '200': { description: 'The plan for the viewer', schema: { $ref: '#/components/schemas/ViewerPlan' } },
    },
    errors: ['not_found', 'result_expired', 'account_inactive'],
  },
];
