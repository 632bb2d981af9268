/**
 * Requests Node's HTTP parser refuses before any route (service/malformed-request.ts), over the
 * real service's socket: an Authorization header over 16 KB gets `431 request_header_too_large`
 * and malformed HTTP `400 bad_request`, each in the spec's error envelope with its X-Request-Id,
 * not Node's bare status line; the service goes on answering.
 */
import t from 'tap';
import { connect } from 'node:net';
import { inProcessService, orgWithKey } from '../helpers/in-process-service.js';

const run = inProcessService(t, 'malformed-request');

/** Sends `raw` on a new connection to the service and resolves everything it answers until it closes. */
function rawExchange(raw: string): Promise<string> {
  const { port, hostname } = new URL(run.service.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(raw));
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString()));
  });
}

/** The status, headers and JSON body of a raw HTTP answer. */
function parsed(answer: string): { status: number; headers: Map<string, string>; body: any } {
  const [head = '', body = ''] = answer.split('\r\n\r\n');
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers = new Map(
    lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()] as const),
  );
  return { status: Number(statusLine.split(' ')[1]), headers, body: JSON.parse(body) };
}

t.test('an Authorization header over 16 KB: 431 request_header_too_large in the envelope', async (t) => {
  const res = await fetch(`${run.service.url}/v1/balance`, {
    headers: { authorization: `Bearer ${'x'.repeat(17 * 1024)}` },
  });
  t.equal(res.status, 431);
  t.match(res.headers.get('content-type'), /^application\/json/);
  const body = (await res.json()) as { error: { code: string; message: string; request_id: string } };
  t.equal(body.error.code, 'request_header_too_large');
  t.match(body.error.message, /over 16 KB/);
  t.match(body.error.request_id, /^req_/);
  t.equal(body.error.request_id, res.headers.get('x-request-id'));
  const o = await orgWithKey(run.service);
  const after = await fetch(`${run.service.url}/v1/balance`, { headers: { authorization: `Bearer ${o.key}` } });
  t.equal(after.status, 200, 'the service goes on answering');
});

t.test('malformed HTTP: 400 bad_request in the envelope', async (t) => {
  const answer = parsed(await rawExchange('GET /v1/balance HTTP/1.1\r\nHost: x\r\nBad Header Line\r\n\r\n'));
  t.equal(answer.status, 400);
  t.equal(answer.body.error.code, 'bad_request');
  t.equal(answer.body.error.request_id, answer.headers.get('x-request-id'));
  const huge = parsed(
    await rawExchange(`GET /v1/balance HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${'y'.repeat(20_000)}\r\n\r\n`),
  );
  t.same([huge.status, huge.body.error.code], [431, 'request_header_too_large'], 'the same over a raw socket');
});
