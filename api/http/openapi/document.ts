/**
 * The OpenAPI 3.1 document of the service, built from the route modules' RouteDocs and schemas
 * (the same JSON Schema objects ajv validates with) plus the shared components
 * (api/http/openapi/components.ts). Served at GET /openapi.json; a test checks it is valid OpenAPI
 * and names exactly the routes the app serves.
 */
import { readFileSync } from 'node:fs';
import type { JsonSchema, ResponseDoc, RouteDoc, RouteModule } from '../route-docs.js';
import type { ErrorCode } from '../../../domain/errors.js';
import { ERROR_STATUS } from '../error-status.js';
import { AUTH_ERRORS, ERROR_MEANING, ref, sharedSchemas } from './components.js';
import { capturedExamples, errorExample, exampleFields } from './examples.js';
import { tagObjects } from './tags.js';

type Header = { description: string; schema: JsonSchema };

/** Response headers of the spec (Endpoints, Limits rule 1, Idempotency). */
const HEADERS: Record<string, Header> = {
  'X-Request-Id': {
    description: 'Id of this request (`req_…`); equals `error.request_id` on errors',
    schema: { type: 'string' },
  },
  'X-RateLimit-Limit': {
    description: 'Requests allowed in the tightest rate-limit window (per key or organization)',
    schema: { type: 'integer' },
  },
  'X-RateLimit-Remaining': { description: 'Requests left in that window', schema: { type: 'integer' } },
  'X-RateLimit-Reset': { description: 'When that window resets (Unix time, seconds)', schema: { type: 'integer' } },
  'X-Credits-Remaining': {
    description: 'Available credits of the organization after the request',
    schema: { type: 'string' },
  },
  'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer' } },
  'Idempotent-Replayed': {
    description: '`true` when an Idempotency-Key replayed an earlier job (nothing new created or charged)',
    schema: { type: 'string', enum: ['true'] },
  },
};

const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });
const RATE_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];

const DESCRIPTION = `Load planning as a service: vehicles and items in, a verified 3D load plan out.

**Authentication.** Every /v1 request sends \`Authorization: Bearer <API key>\`; keys start with \`pk_live_\` followed by 40 characters and carry scopes (\`pack:write\`, \`jobs:read\`, \`account:read\`, \`resources:read\`, \`resources:write\`; our extension: \`webhooks:read\`, \`webhooks:write\`). Failures: 401 \`unauthorized\`, \`key_revoked\`, \`key_expired\`; 403 \`ip_not_allowed\`, \`subscription_inactive\`, \`account_inactive\`, \`scope_missing\`. /health, /openapi.json, /docs and the signed PDF and viewer links need no key.

**Jobs.** POST /v1/pack validates, prices and queues a job; poll GET /v1/jobs/{id} (or pass \`?wait=\` seconds, up to 60) until \`succeeded\`, \`failed\` or \`canceled\`, then GET /v1/jobs/{id}/result. POST /v1/estimate validates and prices the same body for free.

**Errors.** Every non-2xx answer is \`{"error": {"code", "message", "request_id", "details"?}}\`; branch on \`error.code\`. \`request_id\` equals the \`X-Request-Id\` header every response carries. \`details[]\` (path, code, message) lists every problem on 400 and 422. An unknown method and path under /v1 answers 404 \`not_found\`. Retry 429, 500 and 503 with exponential backoff, honouring \`Retry-After\`, resending the same \`Idempotency-Key\`.

**Rate limits.** Requests are counted per minute, hour and day for each key and for the organization; the strictest applies. \`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\`, \`X-RateLimit-Reset\` (Unix time) report the tightest window; over it: 429 \`rate_limited\` with \`Retry-After\`. GET /v1/limits shows the organization's limits.

**Credits.** 1 credit = 1 USD. Creating a job reserves its worst-case price (\`max_credits\` of the estimate); the final charge (\`cost.breakdown\`: base, vehicles, compute, large_load) is taken when it ends. 402 \`insufficient_credits\` when the available credits do not cover the smallest run. \`X-Credits-Remaining\` on authenticated answers shows the available credits. Lengths are cm, weights kg.`;

/** `info.license`: the service is proprietary (package.json is private, no licence file). */
const LICENSE = { name: 'Proprietary: all rights reserved' };

function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
    version?: string;
  };
  return pkg.version ?? '0.0.0';
}

/** The response headers of a success answer of `doc`. */
function successHeaders(doc: RouteDoc, response: ResponseDoc): Record<string, unknown> {
  const headers: Record<string, unknown> = { 'X-Request-Id': headerRef('X-Request-Id') };
  if (doc.scopes.length > 0) {
    for (const h of RATE_HEADERS) headers[h] = headerRef(h);
    headers['X-Credits-Remaining'] = headerRef('X-Credits-Remaining');
  }
  if (doc.parameters?.some((p) => p.in === 'header' && p.name.toLowerCase() === 'idempotency-key')) {
    headers['Idempotent-Replayed'] = headerRef('Idempotent-Replayed');
  }
  for (const [name, h] of Object.entries(response.headers ?? {})) headers[name] = HEADERS[name] ? headerRef(name) : h;
  return headers;
}

/**
 * Every error code `doc` can answer: its own, authentication's, body parsing's, internal_error,
 * and api_disabled (any request meets a store that cannot be reached now: api/http/errors.ts).
 */
export function errorCodesOf(doc: RouteDoc): ErrorCode[] {
  const codes = new Set<ErrorCode>(doc.errors);
  if (doc.scopes.length > 0) for (const c of AUTH_ERRORS) codes.add(c);
  if (doc.requestBody) {
    codes.add('invalid_json');
    codes.add('payload_too_large');
  }
  codes.add('internal_error');
  codes.add('api_disabled');
  return [...codes];
}

/** Error responses of `doc` grouped by status, each listing its codes (description and enum). */
function errorResponses(doc: RouteDoc): Record<string, unknown> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorCodesOf(doc)) {
    const status = ERROR_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const out: Record<string, unknown> = {};
  for (const [status, codes] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    const headers: Record<string, unknown> = { 'X-Request-Id': headerRef('X-Request-Id') };
    // Every 429 and 503 carries Retry-After (api/http/errors.ts sendError guarantees it).
    if (status === 429 || status === 503) headers['Retry-After'] = headerRef('Retry-After');
    if (status === 429) for (const h of RATE_HEADERS) headers[h] = headerRef(h);
    out[String(status)] = {
      description: codes.map((c) => `\`${c}\`: ${ERROR_MEANING[c]}`).join('; '),
      headers,
      content: {
        'application/json': {
          schema: {
            allOf: [
              ref('Error'),
              {
                type: 'object',
                properties: { error: { type: 'object', properties: { code: { type: 'string', enum: codes } } } },
              },
            ],
          },
          example: errorExample(codes),
        },
      },
    };
  }
  return out;
}

/** The OpenAPI operation object of one RouteDoc. */
function operation(doc: RouteDoc): Record<string, unknown> {
  const responses: Record<string, unknown> = {};
  const examples = capturedExamples(doc.operationId);
  for (const [status, response] of Object.entries(doc.responses)) {
    const example = response.example ?? examples?.responses[status];
    responses[status] = {
      description: response.description,
      headers: successHeaders(doc, response),
      ...(response.schema
        ? {
            content: {
              [response.contentType ?? 'application/json']: {
                schema: response.schema,
                ...(response.example !== undefined
                  ? { example }
                  : exampleFields(example, examples, (e) => e.responses[status])),
              },
            },
          }
        : {}),
    };
  }
  const requestExample = doc.requestBody?.example ?? examples?.request;
  Object.assign(responses, errorResponses(doc));
  const scopeNote =
    doc.scopes.length > 0
      ? `\n\nScopes: ${doc.scopes.map((s) => `\`${s}\``).join(' and ')}.`
      : '\n\nNo authentication.';
  return {
    operationId: doc.operationId,
    summary: doc.summary,
    description: (doc.description ?? doc.summary) + scopeNote,
    tags: doc.tags,
    // OpenAPI 3.1 lets non-OAuth requirements list role names: the scopes the key needs.
    security: doc.scopes.length > 0 ? [{ bearer: [...doc.scopes] }] : [],
    ...(doc.parameters?.length
      ? { parameters: doc.parameters.map((p) => ({ ...p, ...(p.in === 'path' ? { required: true } : {}) })) }
      : {}),
    ...(doc.requestBody
      ? {
          requestBody: {
            description: doc.requestBody.description,
            required: doc.requestBody.required ?? true,
            content: {
              'application/json': {
                schema: doc.requestBody.schema,
                ...(doc.requestBody.example !== undefined
                  ? { example: requestExample }
                  : exampleFields(requestExample, examples, (e) => e.request)),
              },
            },
          },
        }
      : {}),
    responses,
  };
}

/** Adds `more` to `into`; a name defined twice with different schemas is an error. */
function mergeSchemas(into: Record<string, JsonSchema>, more: Record<string, JsonSchema>, from: string): void {
  for (const [name, schema] of Object.entries(more)) {
    const existing = into[name];
    if (existing !== undefined && JSON.stringify(existing) !== JSON.stringify(schema)) {
      throw new Error(`component schema "${name}" from ${from} differs from one already defined`);
    }
    into[name] = schema;
  }
}

/**
 * The OpenAPI 3.1.0 document of `modules`: one operation per RouteDoc, the shared and module
 * component schemas, bearer security, the spec's headers and error responses. Throws on a route
 * documented twice or two different schemas under one name.
 */
export function buildOpenApi(modules: readonly RouteModule[]): Record<string, unknown> {
  const schemas: Record<string, JsonSchema> = {};
  mergeSchemas(schemas, sharedSchemas(), 'api/http/openapi/components.ts');
  const paths: Record<string, Record<string, unknown>> = {};
  const tags = new Set<string>();
  for (const module of modules) {
    mergeSchemas(schemas, module.schemas ?? {}, `the module of ${module.docs[0]?.path ?? '(no routes)'}`);
    for (const doc of module.docs) {
      const item = (paths[doc.path] ??= {});
      if (item[doc.method]) throw new Error(`${doc.method.toUpperCase()} ${doc.path} is documented twice`);
      item[doc.method] = operation(doc);
      for (const tag of doc.tags) tags.add(tag);
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Packing service API',
      version: packageVersion(),
      description: DESCRIPTION,
      license: LICENSE,
    },
    servers: [{ url: '/', description: 'This service' }],
    tags: tagObjects([...tags]),
    paths,
    components: {
      schemas,
      headers: HEADERS,
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'pk_live_ followed by 40 characters',
          description:
            'API key: `Authorization: Bearer pk_live_…`. Keys carry scopes; an operation lists the ones it needs.',
        },
      },
    },
  };
}
