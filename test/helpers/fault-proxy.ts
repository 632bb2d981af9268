/**
 * A test proxy in front of the real service that answers chosen requests itself (429, 500, 503,
 * and 409 conflict, with Retry-After, in the spec's error envelope) before or after forwarding them, and records
 * every request it saw (method, path, Idempotency-Key). For the client's retry tests.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One injected answer. */
export interface Fault {
  status: 409 | 429 | 500 | 503;
  /** Retry-After seconds (header left out when undefined). */
  retryAfter?: number;
  /** Forward the request to the service first and answer the fault instead of its answer (a lost answer). */
  afterForward?: boolean;
}

/** A request the proxy saw. */
export interface SeenRequest {
  method: string;
  path: string;
  idempotencyKey: string | undefined;
  /** Status the client got. */
  status: number;
}

export interface FaultProxy {
  url: string;
  seen: SeenRequest[];
  /** Answers the next requests whose `METHOD path` (without query) matches `pattern` with `faults`, in order. */
  inject(pattern: RegExp, faults: Fault[]): void;
  close(): Promise<void>;
}

const CODE: Record<Fault['status'], string> = {
  409: 'conflict',
  429: 'rate_limited',
  500: 'internal_error',
  503: 'api_disabled',
};

async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Starts a proxy to `target` (e.g. `http://127.0.0.1:1234`) on a free loopback port. */
export async function startFaultProxy(target: string): Promise<FaultProxy> {
  const plans: { pattern: RegExp; faults: Fault[] }[] = [];
  const seen: SeenRequest[] = [];
  let n = 0;
  const server: Server = createServer((req, res) => {
    void (async () => {
      const path = (req.url ?? '/').split('?')[0]!;
      const plan = plans.find((p) => p.pattern.test(`${req.method} ${path}`) && p.faults.length > 0);
      const fault = plan?.faults.shift();
      const body = await bodyOf(req);
      const record = (status: number) =>
        seen.push({
          method: req.method!,
          path,
          idempotencyKey: req.headers['idempotency-key'] as string | undefined,
          status,
        });
      const answerFault = (f: Fault) => {
        record(f.status);
        const headers: Record<string, string> = {
          'content-type': 'application/json',
          'x-request-id': `req_proxy${++n}`,
        };
        if (f.retryAfter !== undefined) headers['retry-after'] = String(f.retryAfter);
        res.writeHead(f.status, headers).end(
          JSON.stringify({
            error: { code: CODE[f.status], message: 'injected by the test proxy', request_id: `req_proxy${n}` },
          }),
        );
      };
      if (fault && !fault.afterForward) return answerFault(fault);
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) {
        if (value !== undefined && !['host', 'connection', 'content-length'].includes(name))
          headers.set(name, Array.isArray(value) ? value.join(', ') : value);
      }
      const upstream = await fetch(target + req.url, {
        method: req.method!,
        headers,
        ...(body.length > 0 ? { body } : {}),
      });
      const answer = Buffer.from(await upstream.arrayBuffer());
      if (fault) return answerFault(fault);
      record(upstream.status);
      const out: Record<string, string> = {};
      upstream.headers.forEach((value, name) => {
        if (!['content-length', 'content-encoding', 'transfer-encoding', 'connection'].includes(name))
          out[name] = value;
      });
      res.writeHead(upstream.status, out).end(answer);
    })().catch((error: Error) => res.writeHead(599).end(error.message));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    inject: (pattern, faults) => plans.push({ pattern, faults: [...faults] }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
