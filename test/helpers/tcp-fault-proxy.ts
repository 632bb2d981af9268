/**
 * A TCP proxy that injects network faults between a client and a server (distributed profile
 * tests: a lost NATS connection, a stalled one, a slow one). It listens on a free port of
 * 127.0.0.1 and forwards every connection to `target`; the faults apply to the connections open
 * at the time and to new ones until `restore()`.
 */
import { createConnection, createServer, type Server, type Socket } from 'node:net';

/** How a cut treats new connections: `drop` accepts and closes them at once, `refuse` stops listening (ECONNREFUSED). */
export type CutMode = 'drop' | 'refuse';

/** A running proxy: `url`-ready `port`, the fault switches, and `close()`. */
export interface TcpFaultProxy {
  /** Port the proxy listens on (127.0.0.1). */
  readonly port: number;
  /** Connections accepted and forwarded so far (dropped ones not counted). */
  readonly connections: number;
  /** Destroys every open connection; new ones are dropped or refused (see {@link CutMode}) until `restore()`. */
  cut(mode?: CutMode): Promise<void>;
  /** Keeps every socket open but forwards no byte either way until `restore()` (new connections too). */
  stall(): void;
  /** Delays each chunk by `ms` in both directions (order kept) until `restore()`. */
  slow(ms: number): void;
  /** Ends every fault: listens again after a refusing cut, forwards held bytes, no delay. */
  restore(): Promise<void>;
  /** Destroys every connection and stops listening. */
  close(): Promise<void>;
}

type Fault = { kind: 'none' } | { kind: 'cut'; mode: CutMode } | { kind: 'stall' } | { kind: 'slow'; ms: number };

/** One forwarded direction: chunks wait here while stalled and pass in order when slowed. */
class Pipe {
  private readonly held: Buffer[] = [];
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly to: Socket,
    private readonly fault: () => Fault,
  ) {}

  push(chunk: Buffer): void {
    const fault = this.fault();
    if (fault.kind === 'stall' || this.held.length > 0) {
      this.held.push(chunk);
      if (fault.kind !== 'stall') this.flush();
      return;
    }
    if (fault.kind === 'slow') {
      const ms = fault.ms;
      this.chain = this.chain
        .then(() => new Promise<void>((resolve) => setTimeout(resolve, ms)))
        .then(() => this.write(chunk));
      return;
    }
    // Behind delayed chunks a fresh one waits its turn, so the byte order holds.
    this.chain = this.chain.then(() => this.write(chunk));
  }

  /** Sends the chunks held during a stall, in order. */
  flush(): void {
    const chunks = this.held.splice(0);
    for (const chunk of chunks) this.chain = this.chain.then(() => this.write(chunk));
  }

  private write(chunk: Buffer): void {
    if (!this.to.destroyed) this.to.write(chunk);
  }
}

/** Starts a proxy on a free 127.0.0.1 port forwarding to `target` (host defaults to 127.0.0.1). */
export async function startTcpFaultProxy(target: { port: number; host?: string }): Promise<TcpFaultProxy> {
  const host = target.host ?? '127.0.0.1';
  let fault: Fault = { kind: 'none' };
  const sockets = new Set<Socket>();
  const pipes = new Set<Pipe>();
  let forwarded = 0;

  const onConnection = (client: Socket): void => {
    if (fault.kind === 'cut') {
      client.destroy();
      return;
    }
    forwarded += 1;
    const upstream = createConnection({ port: target.port, host });
    sockets.add(client);
    sockets.add(upstream);
    const up = new Pipe(upstream, () => fault);
    const down = new Pipe(client, () => fault);
    pipes.add(up);
    pipes.add(down);
    client.on('data', (chunk: Buffer) => up.push(chunk));
    upstream.on('data', (chunk: Buffer) => down.push(chunk));
    const end = (): void => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
      pipes.delete(up);
      pipes.delete(down);
    };
    client.on('close', end);
    upstream.on('close', end);
    client.on('error', end);
    upstream.on('error', end);
  };

  let server: Server = createServer(onConnection);
  const listen = (port: number): Promise<void> =>
    new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  const stopListening = (): Promise<void> => new Promise((resolve) => server.close(() => resolve()));
  await listen(0);
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  let listening = true;

  const destroyAll = (): void => {
    for (const socket of sockets) socket.destroy();
    sockets.clear();
    pipes.clear();
  };

  return {
    port,
    get connections() {
      return forwarded;
    },
    async cut(mode: CutMode = 'drop') {
      fault = { kind: 'cut', mode };
      destroyAll();
      if (mode === 'refuse' && listening) {
        listening = false;
        await stopListening();
      }
    },
    stall() {
      fault = { kind: 'stall' };
    },
    slow(ms: number) {
      fault = { kind: 'slow', ms };
    },
    async restore() {
      fault = { kind: 'none' };
      for (const pipe of pipes) pipe.flush();
      if (!listening) {
        server = createServer(onConnection);
        await listen(port);
        listening = true;
      }
    },
    async close() {
      fault = { kind: 'cut', mode: 'refuse' };
      destroyAll();
      if (listening) {
        listening = false;
        await stopListening();
      }
    },
  };
}
