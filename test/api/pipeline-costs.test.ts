/**
 * The HTTP pipeline costs only when it has work, with the same answers: compression only for a
 * request that accepts an encoding (an answer without one is the same bytes with the same
 * `Vary`), the JSON body parser only for a request with a body (bad bodies keep their 400), no
 * logger made per request unless a line is logged for it (the access line keeps its keys and
 * their order), an unknown path under a served prefix is still 404 not_found, and plan links
 * are the same signatures when issued again.
 */
import t from 'tap';
import { connect } from 'node:net';
import { createHmac } from 'node:crypto';
import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { pino, type Logger } from 'pino';
import { inProcessService, orgWithKey } from '../helpers/in-process-service.js';
import { checkLink, signLink } from '../../api/http/plan-links/signed-link.js';

type Line = Record<string, unknown> & { raw: string };
const lines: Line[] = [];
const log = pino({ level: 'info' }, { write: (raw: string) => void lines.push({ ...JSON.parse(raw), raw }) });
// Counts the request loggers made: `child` of the service's logger.
let children = 0;
const child = log.child.bind(log);
log.child = ((...args: Parameters<Logger['child']>) => {
  children += 1;
  return child(...args);
}) as Logger['child'];

const run = inProcessService(t, 'pipeline-costs', { log });

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  bytes: Buffer;
}

/** One request with exactly `headers` (node:http adds no Accept-Encoding). */
function send(method: string, path: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  const url = new URL(run.service.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, bytes: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

/** One request written byte for byte on a socket: no Content-Length, no Transfer-Encoding unless given. */
function sendRaw(head: string): Promise<{ status: number; body: any }> {
  const url = new URL(run.service.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () => socket.write(head));
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [top, ...rest] = text.split('\r\n\r\n');
      resolve({ status: Number(top!.split(' ')[1]), body: JSON.parse(rest.join('\r\n\r\n')) });
    });
  });
}

t.test('compression runs only for a request that accepts an encoding; the answer is otherwise the same', async (t) => {
  const plain = await send('GET', '/openapi.json', {});
  t.equal(plain.status, 200);
  t.ok(plain.bytes.length > 1024, 'an answer above the compression threshold');
  t.equal(plain.headers['content-encoding'], undefined, 'not encoded');
  t.equal(plain.headers['vary'], 'Accept-Encoding', 'still marked as varying by encoding, for shared caches');
  t.equal(Number(plain.headers['content-length']), plain.bytes.length);
  const again = await send('GET', '/openapi.json', {});
  t.ok(again.bytes.equals(plain.bytes), 'the same bytes each time');
  t.equal(again.headers['etag'], plain.headers['etag']);

  const gzip = await send('GET', '/openapi.json', { 'accept-encoding': 'gzip' });
  t.equal(gzip.headers['content-encoding'], 'gzip');
  t.equal(gzip.headers['vary'], 'Accept-Encoding');
  t.ok(gunzipSync(gzip.bytes).equals(plain.bytes), 'gzip of the same bytes');
  const br = await send('GET', '/openapi.json', { 'accept-encoding': 'br' });
  t.equal(br.headers['content-encoding'], 'br');
  t.ok(brotliDecompressSync(br.bytes).equals(plain.bytes), 'brotli of the same bytes');
  const identity = await send('GET', '/openapi.json', { 'accept-encoding': 'identity' });
  t.equal(identity.headers['content-encoding'], undefined);
  t.ok(identity.bytes.equals(plain.bytes));

  // A small JSON answer (below the 1 KiB threshold) carried Vary before as well.
  const health = await send('GET', '/health', {});
  t.equal(health.headers['vary'], 'Accept-Encoding');
  t.equal(health.headers['content-encoding'], undefined);
});

t.test('a request without a body is not parsed; a bad body still answers 400 invalid_json', async (t) => {
  const o = await orgWithKey(run.service, { name: 'Bodies' });
  const auth = { authorization: `Bearer ${o.key}` };
  const balance = await send('GET', '/v1/balance', auth);
  t.equal(balance.status, 200, 'a GET without a body');

  const bad = await send('POST', '/v1/pack', { ...auth, 'content-type': 'application/json' }, '{"vehicles": [');
  t.equal(bad.status, 400);
  const envelope = JSON.parse(bad.bytes.toString('utf8'));
  t.match(envelope, {
    error: {
      code: 'invalid_json',
      message: 'the body is not valid JSON',
      request_id: bad.headers['x-request-id'],
      details: [{ path: '', code: 'invalid_json', message: String }],
    },
  });
  t.same(Object.keys(envelope.error), ['code', 'message', 'request_id', 'details']);

  // A GET that does send a body has it read, as before: a broken one is the same 400.
  const getWithBody = await send(
    'GET',
    '/v1/balance',
    { ...auth, 'content-type': 'application/json', 'content-length': '1' },
    '{',
  );
  t.equal(getWithBody.status, 400);
  t.equal(JSON.parse(getWithBody.bytes.toString('utf8')).error.code, 'invalid_json');

  // A POST without any body (neither Content-Length nor Transfer-Encoding): "no body".
  const none = await sendRaw(
    `POST /v1/pack HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${o.key}\r\nConnection: close\r\n\r\n`,
  );
  t.equal(none.status, 400);
  t.match(none.body.error, { code: 'invalid_json', message: /the request has no body/ });
  // Content-Length: 0 is a body of no bytes: the same answer.
  const empty = await send('POST', '/v1/pack', { ...auth, 'content-type': 'application/json', 'content-length': '0' });
  t.equal(empty.status, 400);
  t.match(JSON.parse(empty.bytes.toString('utf8')).error, { code: 'invalid_json', message: /the request has no body/ });
});

t.test('no request logger is made unless a line is logged for the request; the access line is unchanged', async (t) => {
  const o = await orgWithKey(run.service, { name: 'Quiet' });
  const before = children;
  const res = await send('GET', '/v1/balance', { authorization: `Bearer ${o.key}` });
  t.equal(res.status, 200);
  const requestId = res.headers['x-request-id'];
  const line = await t.resolveMatch(
    (async () => {
      // The line is written when the answer's `close` fires: wait for it without sleeping blindly.
      while (!lines.some((l) => l['request_id'] === requestId)) await new Promise((ok) => setImmediate(ok));
      return lines.find((l) => l['request_id'] === requestId)!;
    })(),
    { msg: 'request', method: 'GET', route: '/v1/balance', status: 200, orgId: o.orgId },
  );
  void line;
  t.equal(children, before, 'no child logger for the request');
  const written = lines.find((l) => l['request_id'] === requestId)!;
  // The keys and their order are the ones of a child logger bound to request_id.
  const viaChild: string[] = [];
  pino({ level: 'info' }, { write: (raw: string) => void viaChild.push(raw) })
    .child({ request_id: requestId })
    .info({ method: 'GET', route: '/v1/balance', status: 200, ms: 1, orgId: o.orgId }, 'request');
  t.same(Object.keys(JSON.parse(written.raw)), Object.keys(JSON.parse(viaChild[0]!)));
});

t.test('an unknown path under a served prefix is 404 not_found, as before', async (t) => {
  const o = await orgWithKey(run.service, { name: 'Lost' });
  const auth = { authorization: `Bearer ${o.key}` };
  for (const [method, path] of [
    ['GET', '/v1/jobs/job_abc/nothing'],
    ['GET', '/v1/jobsx'],
    ['GET', '/v1/Jobs'],
    ['PUT', '/v1/jobs/job_abc'],
    ['GET', '/v1/balance/extra'],
    ['GET', '/plans/'],
    ['GET', '/v1/'],
    ['POST', '/nowhere'],
  ] as const) {
    const res = await send(method, path, auth);
    const body = JSON.parse(res.bytes.toString('utf8'));
    t.equal(res.status, 404, `${method} ${path}`);
    t.same(
      body,
      {
        error: { code: 'not_found', message: `no endpoint ${method} ${path}`, request_id: res.headers['x-request-id'] },
      },
      `${method} ${path}: the same envelope`,
    );
  }
});

t.test('a plan link issued again carries the same signature, and checks', async (t) => {
  const key = Buffer.from('a signing key of the test, 32 by');
  const expiresAt = '2099-01-01T00:00:00.000Z';
  const expires = Math.floor(Date.parse(expiresAt) / 1000);
  const hmac = (text: string) => createHmac('sha256', key).update(text).digest('hex');
  const first = signLink(key, 'pdf', 'job_abc', expiresAt);
  t.same(first, { expires, signature: hmac(`job_abc.${expires}`) });
  t.same(signLink(key, 'pdf', 'job_abc', expiresAt), first, 'issued again: the same');
  t.same(signLink(key, 'viewer', 'job_abc', expiresAt, 2), {
    expires,
    signature: hmac(`viewer:job_abc.${expires}.2`),
  });
  t.ok(checkLink(key, 'pdf', 'job_abc', String(expires), first.signature, Date.now()));
  t.notOk(checkLink(key, 'pdf', 'job_abc', String(expires), first.signature, Date.now(), 1), 'revoked generation');
  const other = Buffer.from('another signing key of the test!');
  t.not(signLink(other, 'pdf', 'job_abc', expiresAt).signature, first.signature, 'kept per key');
});
