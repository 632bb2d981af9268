/**
 * One error vocabulary: every code of the domain's ErrorCode union has a status in the one table
 * (api/http/error-status.ts), a meaning and a place in the OpenAPI document under that status, and the
 * error middleware answers a DomainError with the table's status and the spec's envelope.
 */
import t from 'tap';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { DomainError, ERROR_CODES, type ErrorCode } from '../../domain/errors.js';
import { ERROR_STATUS } from '../../api/http/error-status.js';
import { errorMiddleware, sendError } from '../../api/http/errors.js';
import { ERROR_MEANING } from '../../api/http/openapi/components.js';
import { buildOpenApi } from '../../api/http/openapi/document.js';
import { ROUTE_MODULES } from '../../api/http/routes/index.js';

t.test('every code has one status of 4xx or 5xx, and the table names no other code', async (t) => {
  t.equal(new Set(ERROR_CODES).size, ERROR_CODES.length, 'no code listed twice');
  t.same(Object.keys(ERROR_STATUS).sort(), [...ERROR_CODES].sort());
  for (const code of ERROR_CODES) {
    const status = ERROR_STATUS[code];
    t.ok(Number.isInteger(status) && status >= 400 && status <= 599, `${code}: ${status}`);
  }
  // A few figures of the spec's Errors table, so a swapped row fails.
  t.same(
    (
      [
        'invalid_json',
        'unauthorized',
        'insufficient_credits',
        'scope_missing',
        'job_not_found',
        'conflict',
        'result_expired',
        'payload_too_large',
        'validation_failed',
        'too_many_jobs',
        'internal_error',
        'api_disabled',
      ] as const
    ).map((c) => ERROR_STATUS[c]),
    [400, 401, 402, 403, 404, 409, 410, 413, 422, 429, 500, 503],
  );
});

t.test('every code is documented: a meaning, and listed in the OpenAPI document under its status', async (t) => {
  const doc = buildOpenApi(ROUTE_MODULES) as {
    paths: Record<string, Record<string, { responses: Record<string, any> }>>;
  };
  const documented = new Map<string, Set<number>>();
  for (const item of Object.values(doc.paths)) {
    for (const op of Object.values(item)) {
      for (const [status, response] of Object.entries(op.responses)) {
        if (Number(status) < 400) continue;
        const codes: string[] =
          response.content['application/json'].schema.allOf[1].properties.error.properties.code.enum;
        for (const code of codes) {
          documented.set(code, (documented.get(code) ?? new Set()).add(Number(status)));
          t.match(response.description, `\`${code}\`: ${ERROR_MEANING[code as ErrorCode]}`, `${code} described`);
        }
      }
    }
  }
  for (const code of ERROR_CODES) {
    t.ok(ERROR_MEANING[code]?.length, `${code} has a meaning`);
    t.same(
      [...(documented.get(code) ?? [])],
      [ERROR_STATUS[code]],
      `${code} documented under ${ERROR_STATUS[code]} only`,
    );
  }
  t.same(
    [...documented.keys()].filter((c) => !(ERROR_CODES as readonly string[]).includes(c)),
    [],
    'the document names no other code',
  );
});

t.test('the error middleware answers a DomainError with the status of its code', async (t) => {
  const app = express();
  app.get('/throw/:code', (req) => {
    const code = req.params.code as ErrorCode;
    throw code === 'validation_failed'
      ? new DomainError('validation_failed', 'bad', [{ path: 'x', code: 'out_of_range', message: 'too big' }])
      : new DomainError(code, `refused: ${code}`, undefined, { cause: new Error('inner') });
  });
  app.get('/send/:code', (req, res) => sendError(res, req.params.code as ErrorCode, 'sent'));
  app.use(errorMiddleware({ error: () => undefined }));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  t.teardown(() => server.close());
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  for (const code of ERROR_CODES) {
    const thrown = await fetch(`${base}/throw/${code}`);
    const body = (await thrown.json()) as { error: Record<string, unknown> };
    t.equal(thrown.status, ERROR_STATUS[code], `${code}: status`);
    if (code === 'validation_failed') {
      t.same(body, {
        error: {
          code,
          message: 'bad',
          request_id: '',
          details: [{ path: 'x', code: 'out_of_range', message: 'too big' }],
        },
      });
    } else {
      t.same(
        body,
        { error: { code, message: `refused: ${code}`, request_id: '' } },
        `${code}: envelope without details`,
      );
    }
    t.equal((await fetch(`${base}/send/${code}`)).status, ERROR_STATUS[code], `sendError ${code}`);
  }
});

t.test('a wrapping error keeps its cause', async (t) => {
  const inner = new Error('disk full');
  const err = new DomainError('internal_error', 'could not store', undefined, { cause: inner });
  t.equal(err.cause, inner);
  t.equal(err.code, 'internal_error');
  t.notOk('status' in err, 'the domain error carries no HTTP status');
});
