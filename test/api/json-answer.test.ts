/**
 * `sendJson` (api/http/json-answer.ts) writes the very bytes Express's `res.json` writes: status
 * line, headers in order (the Date aside), body, for plain GETs, compressed answers, HEAD,
 * conditional requests (304), other statuses, a preset Content-Type and non-ASCII text.
 */
import t from 'tap';
import { connect } from 'node:net';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { sendJson } from '../../api/http/json-answer.js';
import { COMPRESSION } from '../../api/http/app.js';

const value = {
  id: 'job_abc',
  object: 'job',
  reference: 'Lieferung München → Lyon, 33 palettes “EUR” 😀',
  cost: { credits: 1.10415, breakdown: { base: 0.1 } },
  warnings: [],
  error: null,
  pad: 'x'.repeat(1500),
};
const small = { data: [], next_cursor: '' };

const app = express();
app.disable('x-powered-by');
app.use(COMPRESSION);
for (const [name, answer] of [
  ['express', (res: express.Response, v: unknown) => void res.json(v)],
  ['one-step', sendJson],
] as const) {
  app.get(`/${name}/big`, (_req, res) => answer(res, value));
  app.get(`/${name}/small`, (_req, res) => answer(res, small));
  app.get(`/${name}/accepted`, (_req, res) => answer(res.status(202), small));
  app.get(`/${name}/typed`, (_req, res) => answer(res.type('application/problem+json'), small));
  app.get(`/${name}/missing`, (_req, res) => answer(res.status(404), { error: { code: 'not_found' } }));
}
const server = createServer(app);

/** The raw answer to `head` (a request without body), the Date header taken out. */
function raw(head: string): Promise<string> {
  const port = (server.address() as AddressInfo).port;
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(head));
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('end', () =>
      resolve(
        Buffer.concat(chunks)
          .toString('latin1')
          .replace(/\r\nDate: [^\r]*/, ''),
      ),
    );
  });
}

t.before(() => new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok)));
t.teardown(() => new Promise<void>((ok) => server.close(() => ok())));

t.test('the same bytes as res.json', async (t) => {
  const etag = /ETag: (\S+)/.exec(await raw('GET /express/big HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'))![1]!;
  const cases: [string, string][] = [
    ['GET', ''],
    ['GET', 'Accept-Encoding: gzip\r\n'],
    ['GET', 'Accept-Encoding: br\r\n'],
    ['HEAD', ''],
    ['GET', `If-None-Match: ${etag}\r\n`],
    ['GET', 'If-None-Match: W/"0-other"\r\n'],
    ['GET', 'If-Modified-Since: Thu, 01 Jan 2026 00:00:00 GMT\r\n'],
  ];
  for (const path of ['big', 'small', 'accepted', 'typed', 'missing'])
    for (const [method, headers] of cases) {
      const request = (who: string) =>
        `${method} /${who}/${path} HTTP/1.1\r\nHost: x\r\n${headers}Connection: close\r\n\r\n`;
      const [express, oneStep] = await Promise.all([raw(request('express')), raw(request('one-step'))]);
      t.equal(oneStep, express, `${method} /${path} ${headers.trim() || '(plain)'}`);
    }
  const plain = await raw('GET /one-step/big HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
  t.match(plain, /^HTTP\/1\.1 200 OK\r\n/);
  t.match(plain, /\r\nContent-Type: application\/json; charset=utf-8\r\n/);
  t.match(plain, /\r\nETag: W\/"[0-9a-f]+-[A-Za-z0-9+/]{27}"\r\n/);
  const cached = await raw(
    `GET /one-step/big HTTP/1.1\r\nHost: x\r\nIf-None-Match: ${etag}\r\nConnection: close\r\n\r\n`,
  );
  t.match(cached, /^HTTP\/1\.1 304 Not Modified\r\n/, 'a conditional GET still gets its 304');
});
