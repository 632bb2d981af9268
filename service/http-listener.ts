/**
 * The HTTP(S) socket of the api role, bound first at start: before anything is read or written
 * in the data dir, so a port in use fails the start with the listen error (`code` EADDRINUSE)
 * and leaves the data dir untouched. Until the application is handed over every request gets
 * the start-up 503 (service/starting-responder.ts), not a refused connection. A request the HTTP
 * parser refuses (headers over 16 KB, malformed HTTP) gets the error envelope too
 * (service/malformed-request.ts).
 */
import { createServer as createHttpServer, type RequestListener, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { answerMalformedRequest } from './malformed-request.js';
import { answerStarting } from './starting-responder.js';

/** A bound listener: its address, the handler it forwards to, its close. */
export interface HttpListener {
  /** `http(s)://host:port` it listens on (an IPv6 host in brackets). */
  readonly url: string;
  /** `https` with a certificate, else `http`. */
  readonly scheme: 'http' | 'https';
  /** The port bound (the one the system chose for port 0). */
  readonly port: number;
  /** Hands every later request to `handler` (the application, once ready). */
  serve(handler: RequestListener): void;
  /** Stops accepting, waits for the server to close and ends the connections still open. */
  close(): Promise<void>;
}

/**
 * Binds `port` on `host`: HTTPS when given a certificate (spec: JSON over HTTPS), plain HTTP for
 * a TLS-terminating proxy. Rejects with the listen error (e.g. EADDRINUSE).
 */
export async function listenForRequests(options: {
  port: number;
  host: string;
  tls?: { cert: Buffer; key: Buffer } | undefined;
}): Promise<HttpListener> {
  let handle: RequestListener = answerStarting;
  const forward: RequestListener = (req, res) => handle(req, res);
  const server: Server = options.tls
    ? createHttpsServer({ cert: options.tls.cert, key: options.tls.key }, forward)
    : createHttpServer(forward);
  server.on('clientError', answerMalformedRequest);
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(options.port, options.host, () => {
      server.off('error', fail);
      ok();
    });
  });
  const address = server.address() as AddressInfo;
  const scheme = options.tls ? 'https' : 'http';
  return {
    url: `${scheme}://${address.address.includes(':') ? `[${address.address}]` : address.address}:${address.port}`,
    scheme,
    port: address.port,
    serve: (handler) => {
      handle = handler;
    },
    close: async () => {
      await new Promise<void>((ok) => server.close(() => ok()));
      server.closeAllConnections();
    },
  };
}
