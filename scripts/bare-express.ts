/**
 * The bare Express baseline of `npm run bench -- api` (scripts/bench-api.ts), in a process of its
 * own like the service: `GET /v1/jobs/:id` answers the JSON read from the file BODY_FILE, nothing
 * else (no auth, no reads). Listens on 127.0.0.1 and a free port; prints `listening <port>`.
 */
import express from 'express';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';

const body = readFileSync(process.env['BODY_FILE'] ?? '/dev/null', 'utf8');
const app = express();
app.disable('x-powered-by');
app.get('/v1/jobs/:id', (_req, res) => {
  res.type('application/json').send(body);
});
const server = app.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening ${(server.address() as AddressInfo).port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
