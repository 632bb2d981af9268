/**
 * A webhook receiver for tests: an HTTP server on loopback that records every request (raw body,
 * headers) and answers with the status `answer` picks, after the wait `delayMs` picks (slow
 * receivers); `until(predicate)` resolves once the received requests satisfy it (woken by each
 * request, no sleeps). A request counts as received when its body has arrived, before the answer.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  body: string;
  headers: IncomingHttpHeaders;
  /** The status this receiver answered. */
  status: number;
}

export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  /** Status of the answer to the n-th request (0-based) with `body`; default 200. */
  answer: (n: number, body: string) => number;
  /** Wait before answering the n-th request (0-based) with `body`, ms; default 0 (answer at once). */
  delayMs: (n: number, body: string) => number;
  until(predicate: (received: ReceivedWebhook[]) => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const waiters = new Set<() => void>();
  const receiver: WebhookReceiver = {
    url: '',
    received: [],
    answer: () => 200,
    delayMs: () => 0,
    until(predicate, timeoutMs = 60_000) {
      if (predicate(receiver.received)) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(
              `the receiver did not get what was awaited within ${timeoutMs} ms; got ${receiver.received.length} requests`,
            ),
          );
        }, timeoutMs);
        const check = () => {
          if (!predicate(receiver.received)) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        waiters.add(check);
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const n = receiver.received.length;
      const status = receiver.answer(n, body);
      const delay = receiver.delayMs(n, body);
      receiver.received.push({ body, headers: req.headers, status });
      if (delay > 0) setTimeout(() => res.writeHead(status).end(), delay);
      else res.writeHead(status).end();
      for (const w of [...waiters]) w();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  server.unref();
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return receiver;
}
