/**
 * The one line `npm start` prints when the HTTP port cannot be bound: a port
 * in use, a port that needs privileges, or a HOST this machine does not have. Read by
 * service/main.ts, which prints it after `refusing to start: ` and exits 1.
 */

/** The fields of a Node `listen` error (`net.Server` 'error' event) this module reads. */
interface ListenError {
  code?: unknown;
  syscall?: unknown;
  address?: unknown;
  port?: unknown;
}

/**
 * `err` as one sentence when it is a failed `listen` (EADDRINUSE, EACCES, EADDRNOTAVAIL, …),
 * e.g. `port 8080 on 0.0.0.0 is in use (EADDRINUSE)`; undefined for any other error. `port` and
 * `host` are the configured ones, used when the error does not carry them.
 */
export function listenFailure(err: unknown, port: number, host: string): string | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const e = err as ListenError;
  if (e.syscall !== 'listen' || typeof e.code !== 'string') return undefined;
  const where = `port ${typeof e.port === 'number' ? e.port : port} on ${typeof e.address === 'string' ? e.address : host}`;
  switch (e.code) {
    case 'EADDRINUSE':
      return `${where} is in use (EADDRINUSE)`;
    case 'EACCES':
      return `${where} needs privileges this process lacks (EACCES)`;
    case 'EADDRNOTAVAIL':
      return `${where} is not an address of this machine (EADDRNOTAVAIL)`;
    default:
      return `${where} cannot be bound (${e.code})`;
  }
}
