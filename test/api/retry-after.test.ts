/**
 * `Retry-After` on every 429 and 503 the service sends (spec Response headers).
 * One place guarantees it: sendError (api/http/errors.ts) adds the code's default when the thrower set
 * none. Checked three ways: every code whose status is 429 or 503, through sendError; the source
 * of api/ answers no error status anywhere but there; and each 429/503 answer path over HTTP.
 */
import t from 'tap';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Response } from 'express';
import { createApp } from '../../api/http/app.js';
import { sendError } from '../../api/http/errors.js';
import { ERROR_STATUS, retryAfterOf } from '../../api/http/error-status.js';
import type { ErrorCode } from '../../domain/errors.js';
import { inProcessService, orgWithKey } from '../helpers/in-process-service.js';
import { call } from '../helpers/service-process.js';

const run = inProcessService(t, 'retry-after');
const small = {
  vehicles: [{ vehicle_id: 'rigid-7-5t' }],
  items: [{ id: 'carton', length: 60, width: 40, height: 40, weight: 12, quantity: 2 }],
};
const CODES = Object.keys(ERROR_STATUS) as ErrorCode[];
const RETRYABLE = CODES.filter((c) => ERROR_STATUS[c] === 429 || ERROR_STATUS[c] === 503);

/** The headers and status sendError leaves on a response. */
function sent(
  code: ErrorCode,
  preset: Record<string, string> = {},
): { status: number; headers: Record<string, string> } {
  const headers: Record<string, string> = { 'X-Request-Id': 'req_test', ...preset };
  let status = 0;
  const res = {
    getHeader: (name: string) => headers[name],
    setHeader: (name: string, value: string) => {
      headers[name] = value;
    },
    status(s: number) {
      status = s;
      return this;
    },
    json: () => undefined,
  };
  sendError(res as unknown as Response, code, 'test');
  return { status, headers };
}

t.test('every code answered with 429 or 503 gets a Retry-After in seconds; no other code does', async (t) => {
  t.same(
    RETRYABLE.sort(),
    ['api_disabled', 'idempotency_key_pending', 'rate_limited', 'too_many_jobs'],
    "the 429 and 503 codes of the spec, and ours (a key's first request still creating its job)",
  );
  for (const code of CODES) {
    const { status, headers } = sent(code);
    t.equal(status, ERROR_STATUS[code]);
    if (RETRYABLE.includes(code)) {
      t.match(headers['Retry-After'], /^[1-9]\d*$/, `${code} (${status}): Retry-After ${headers['Retry-After']}`);
      t.equal(Number(headers['Retry-After']), retryAfterOf(code));
    } else {
      t.equal(headers['Retry-After'], undefined, `${code} (${status}): none`);
      t.equal(retryAfterOf(code), null);
    }
  }
  t.equal(
    sent('rate_limited', { 'Retry-After': '3417' }).headers['Retry-After'],
    '3417',
    "the thrower's own value is kept",
  );
});

t.test('no file under api/ answers an error status except through sendError', async (t) => {
  const root = join(import.meta.dirname, '../../api');
  const files = (readdirSync(root, { recursive: true }) as string[])
    .filter((f) => f.endsWith('.ts'))
    .map((f) => join(root, f));
  t.ok(files.length > 40, `${files.length} files read`);
  const bypasses: string[] = [];
  for (const file of files) {
    const name = relative(root, file);
    // The start-up answer is written before Express exists; it sets Retry-After itself (checked over HTTP below).
    if (name === 'starting-responder.ts') continue;
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        const literal = /\.status\(\s*(\d{3})/.exec(line);
        const other = /\.(sendStatus|writeHead)\(|statusCode\s*=[^=]/.exec(line);
        const computed = /\.status\(\s*(?!\d)/.exec(line);
        if ((literal && Number(literal[1]) >= 400) || other) bypasses.push(`${name}:${i + 1}: ${line.trim()}`);
        // A computed status is fine only where its values are known: sendError's table, a 200/202.
        else if (computed && !(name === join('http', 'errors.ts') || /\?\s*200\s*:\s*202/.test(line)))
          bypasses.push(`${name}:${i + 1}: ${line.trim()}`);
      });
  }
  t.same(bypasses, [], 'every error answer goes through sendError');
});

t.test('429 too_many_jobs on POST /v1/pack and POST /v1/projects/{id}/pack carries Retry-After', async (t) => {
  const o = await orgWithKey(run.service, { name: 'Full', limits: { maxQueuedJobs: 0 } });
  const pack = await call(run.service.url, o.key, 'POST', '/v1/pack', small);
  t.same([pack.status, pack.body.error.code], [429, 'too_many_jobs']);
  t.equal(pack.headers.get('retry-after'), String(retryAfterOf('too_many_jobs')));
  const project = await call(run.service.url, o.key, 'POST', '/v1/projects', {
    name: 'Full',
    vehicles: [{ vehicle_id: 'rigid-7-5t', quantity: 1 }],
    items: [{ label: 'Carton', length: 60, width: 40, height: 40, weight: 12, quantity: 2 }],
  });
  t.equal(project.status, 201);
  const packProject = await call(run.service.url, o.key, 'POST', `/v1/projects/${project.body.id}/pack`, {});
  t.same([packProject.status, packProject.body.error.code], [429, 'too_many_jobs']);
  t.equal(packProject.headers.get('retry-after'), String(retryAfterOf('too_many_jobs')));
});

t.test('429 rate_limited keeps the Retry-After of the window that refused', async (t) => {
  const o = await orgWithKey(run.service, {
    name: 'Slow',
    limits: { rateLimits: { perMinute: 1, perHour: 100, perDay: 100 } },
  });
  t.equal((await call(run.service.url, o.key, 'GET', '/v1/balance')).status, 200);
  const refused = await call(run.service.url, o.key, 'GET', '/v1/balance');
  t.same([refused.status, refused.body.error.code], [429, 'rate_limited']);
  const seconds = Number(refused.headers.get('retry-after'));
  t.ok(seconds >= 1 && seconds <= 60, `Retry-After ${seconds} s: what is left of the minute`);
});

t.test('503 api_disabled from GET /health while the service is not ready carries Retry-After', async (t) => {
  const app = createApp({ ...run.service.services, isReady: () => false });
  const server = createServer(app);
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  t.teardown(() => new Promise<void>((ok) => server.close(() => ok())));
  const res = await call(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, null, 'GET', '/health');
  t.same([res.status, res.body.error.code], [503, 'api_disabled']);
  t.equal(res.headers.get('retry-after'), String(retryAfterOf('api_disabled')));
});
