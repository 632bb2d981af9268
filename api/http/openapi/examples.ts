/**
 * Examples of the OpenAPI document: the request body and success answers of
 * each operation, captured from the real service into api/http/openapi/examples.json by
 * scripts/capture-openapi-examples.ts (request bodies from examples/), and an error envelope per
 * error status built from the codes that status documents. The OpenAPI test validates every
 * example against its schema with ajv, so a capture gone stale fails it.
 */
import { readFileSync } from 'node:fs';
import type { ErrorCode } from '../../../domain/errors.js';
import { ERROR_MEANING } from './components.js';

/**
 * Captured examples of one operation: its request body and a success answer by status code.
 * `summary` and `alternatives`: an operation shown with more than one case (POST /v1/plans/verify:
 * a valid plan and one with an overlap); the document then names each case (OpenAPI `examples`).
 */
export interface OperationExamples {
  summary?: string;
  request?: unknown;
  responses: Record<string, unknown>;
  alternatives?: AlternativeExample[];
}

/** One more case of an operation: its name (a key of OpenAPI `examples`), what it shows, its body and answers. */
export interface AlternativeExample {
  name: string;
  summary: string;
  request?: unknown;
  responses: Record<string, unknown>;
}

/**
 * The example fields of one media type object: `example` for a single case, else `examples` naming
 * the captured case `default` and each alternative by its name (cases without a value left out).
 * `pick` reads the value of a case (its request body, or its answer of one status).
 */
export function exampleFields(
  primary: unknown,
  captured: OperationExamples | undefined,
  pick: (e: { request?: unknown; responses: Record<string, unknown> }) => unknown,
): Record<string, unknown> {
  const more = (captured?.alternatives ?? []).filter((a) => pick(a) !== undefined);
  if (more.length === 0 || primary === undefined) return primary === undefined ? {} : { example: primary };
  return {
    examples: {
      default: { ...(captured?.summary ? { summary: captured.summary } : {}), value: primary },
      ...Object.fromEntries(more.map((a) => [a.name, { summary: a.summary, value: pick(a) }])),
    },
  };
}

const CAPTURED = JSON.parse(readFileSync(new URL('./examples.json', import.meta.url), 'utf8')) as Record<
  string,
  OperationExamples
>;

/** Examples captured for `operationId`, or undefined (non-JSON answers, the document itself). */
export function capturedExamples(operationId: string): OperationExamples | undefined {
  return CAPTURED[operationId];
}

/** A detail per validation code, as the service writes them (spec Errors, second table). */
const DETAIL_EXAMPLE: Partial<Record<ErrorCode, { path: string; code: string; message: string }>> = {
  validation_failed: {
    path: 'items[0].length',
    code: 'out_of_range',
    message: 'items[0].length must be greater than 0, got 0',
  },
  invalid_json: {
    path: 'items[0].weight',
    code: 'invalid_json',
    message: 'items[0].weight must be a number, got "12"',
  },
};

/**
 * The error envelope example of a status answering `codes` (the first code is shown); 400 and
 * 422 carry one detail.
 */
export function errorExample(codes: readonly ErrorCode[]): Record<string, unknown> {
  const code = codes.includes('validation_failed') ? 'validation_failed' : codes[0]!;
  const detail = DETAIL_EXAMPLE[code];
  return {
    error: {
      code,
      message: ERROR_MEANING[code],
      request_id: 'req_7f3k2m9x4q8w1n6b5v0c',
      ...(detail ? { details: [detail] } : {}),
    },
  };
}
