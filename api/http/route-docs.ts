/**
 * How each route module describes itself for the OpenAPI 3.1 document (api/openapi): one
 * RouteDoc per method + path, with JSON Schemas (the same objects ajv validates with, where a
 * body is validated) and the spec error codes it can answer. A test checks that the routes the
 * app serves and the documented ones are the same set.
 */
import type { Router } from 'express';
import type { ErrorCode } from '../../domain/errors.js';
import type { Scope } from '../../domain/organization/organization.js';
import type { Services } from './services.js';

/** A JSON Schema (draft 2020-12, as OpenAPI 3.1 uses). */
export type JsonSchema = Record<string, unknown>;

export interface ParameterDoc {
  name: string;
  in: 'query' | 'path' | 'header';
  required?: boolean;
  description: string;
  schema: JsonSchema;
}

export interface ResponseDoc {
  description: string;
  /** Body schema; `$ref: '#/components/schemas/X'` to share. */
  schema?: JsonSchema;
  /** Default application/json. */
  contentType?: string;
  /** An example answer; without one, api/http/openapi/examples.json's capture of the operation. */
  example?: unknown;
  /** Response headers beyond the ones every response has. */
  headers?: Record<string, { description: string; schema: JsonSchema }>;
}

export interface RouteDoc {
  method: 'get' | 'post' | 'patch' | 'delete';
  /** OpenAPI style, e.g. `/v1/jobs/{id}`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  /** Scopes the key needs; [] for routes without Authorization (health, docs, signed links). */
  scopes: Scope[];
  parameters?: ParameterDoc[];
  /** `example`: a valid body; without one, api/http/openapi/examples.json's capture of the operation. */
  requestBody?: { description: string; schema: JsonSchema; required?: boolean; example?: unknown };
  /** Success responses by status code. */
  responses: Record<string, ResponseDoc>;
  /** Spec error codes (`error.code`) this route can answer, besides the ones of authentication. */
  errors: ErrorCode[];
}

/** A route module: its express router, its docs and the named schemas it contributes. */
export interface RouteModule {
  /**
   * Makes the router. createApp hands every module the whole Services; each factory's own
   * parameter type names the narrow piece it reads (api/http/context.ts: RouteContext, PackContext…).
   */
  router(services: Services): Router;
  docs: RouteDoc[];
  /** Component schemas by name (e.g. `Vehicle`), referenced as `#/components/schemas/<name>`. */
  schemas?: Record<string, JsonSchema>;
}

/**
 * Options of every route module's router: paths match exactly (`/v1/Balance` and `/v1/balance/`
 * are not `/v1/balance`; spec Versioning: an unknown path answers 404 not_found).
 */
export const ROUTER_OPTIONS = { caseSensitive: true, strict: true } as const;
