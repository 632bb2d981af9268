/**
 * NATS JetStream bus (DESIGN §2, distributed profile): one work-queue stream holds the messages,
 * one durable pull consumer per subject hands each message to exactly one solver node at a time,
 * and every delivery is settled explicitly (ack / nak(delay) / working / term).
 *
 * Outages (docs/operations.md, "Distributed profile"): the connection reconnects for ever
 * with a capped, jittered wait; a stalled TCP connection is found by client pings within
 * `(maxPingOut + 1) · pingIntervalMs`; after every reconnection, and whenever the server answers
 * "stream not found" / "consumer not found", the stream and the consumers are made again, so a
 * nats-server restarted with an empty store works again without restarting this process. Each
 * change of the connection's state is one structured log line and one {@link NatsBusStatus}.
 */
import {
  AckPolicy,
  DebugEvents,
  DeliverPolicy,
  ErrorCode,
  Events,
  JSONCodec,
  NatsError,
  RetentionPolicy,
  StorageType,
  connect,
  nanos,
  type ConnectionOptions,
  type ConsumerConfig,
  type ConsumerMessages,
  type JetStreamClient,
  type JetStreamManager,
  type JsMsg,
  type NatsConnection,
  type Status,
  type Subscription as NatsSubscription,
} from 'nats';
import { pino, type Logger } from 'pino';
import type { Bus, BusConsumer, BusMessage } from '../../domain/ports/bus.js';
import { backoffDelay, ReconnectPacing } from './reconnect-pacing.js';

/** State of the bus's connection, for health checks: `up` while connected to a server. */
export interface NatsBusStatus {
  state: 'up' | 'down';
  /** When the bus entered this state, RFC 3339 (UTC). */
  since: string;
  /** Why the bus is down (the lost server, a stale connection, the closing error); absent while up. */
  reason?: string;
}

/** Timings of reconnection and failure detection, ms; every field has a default. */
export interface NatsBusTimings {
  /** Wait before the second attempt to reach the server; doubles per failed attempt. Default 250. */
  reconnectMinWaitMs: number;
  /** Longest wait between two attempts to reach the server (jitter: half to all of it). Default 2 000. */
  reconnectMaxWaitMs: number;
  /** Interval of the client's pings. Default 5 000. */
  pingIntervalMs: number;
  /** Pings without an answer before the connection counts as stale and is dropped. Default 2. */
  maxPingOut: number;
  /** Longest wait for one connection's handshake. Default 5 000. */
  connectTimeoutMs: number;
  /** Longest pause of a consume loop between two failed pulls (first 500, doubling). Default 5 000. */
  pullRetryMaxWaitMs: number;
  /** Longest wait of a publish for a connection that is down before it throws. Default 5 000. */
  publishWaitMs: number;
}

/** Default {@link NatsBusTimings}: a stall is found within 15 s, a returning server is dialled within 2 s. */
export const DEFAULT_NATS_BUS_TIMINGS: NatsBusTimings = {
  reconnectMinWaitMs: 250,
  reconnectMaxWaitMs: 2000,
  pingIntervalMs: 5000,
  maxPingOut: 2,
  connectTimeoutMs: 5000,
  pullRetryMaxWaitMs: 5000,
  publishWaitMs: 5000,
};

/** Options of {@link NatsBus.connect}. */
export interface NatsBusOptions {
  /** NATS server URL(s), e.g. `nats://127.0.0.1:4222`. */
  servers: string | string[];
  /** Work-queue stream name; created when missing. Default `PACKING`. */
  stream?: string;
  /** Subjects the stream covers (wildcards allowed). Default `['packing.>']`. */
  subjects?: string[];
  /** Time a delivery may stay unsettled before JetStream redelivers it (ms). Default 30 000. */
  ackWaitMs?: number;
  /** Longest wait of one pull request (ms); bounds how long `close()` may wait. Default 5 000. */
  pullExpiresMs?: number;
  /** Receives one line per change of the connection's state and per failing/recovered pull loop. Default: silent. */
  log?: Logger;
  /**
   * Told of each change of {@link NatsBus.status} (state, or the reason while down), and of the
   * `down` while the first connection waits; not of the initial `up` (read `status`).
   */
  onStatus?: (status: NatsBusStatus) => void;
  /** Reconnection and failure-detection timings (tests shorten them). */
  timings?: Partial<NatsBusTimings>;
}

/** The same id published again within this window is dropped by JetStream (ms). */
const DUPLICATE_WINDOW_MS = 2 * 60 * 60 * 1000;
/** Redelivery delay of a message whose handler threw without settling it (ms); as the in-process bus. */
const FAILED_HANDLER_DELAY_MS = 1000;
/** First pause of a consume loop after a failed pull (ms); doubles up to `pullRetryMaxWaitMs`. */
const PULL_RETRY_MIN_WAIT_MS = 500;
/** Longest wait between two new connections after the client gave up (e.g. refused credentials), ms. */
const REDIAL_MAX_WAIT_MS = 30_000;
/** Longest wait of `close()` for the connection to drain before it is closed outright, ms. */
const DRAIN_TIMEOUT_MS = 5000;
/** JetStream API error code "stream not found". */
const STREAM_NOT_FOUND = 10059;
/** JetStream API error code "consumer not found". */
const CONSUMER_NOT_FOUND = 10014;

const codec = JSONCodec();

/**
 * Durable consumer name of `subject`: consumer names may not hold `.`, `*`, `>` or spaces,
 * so those become `_`, `star`, `all` (e.g. `packing.solve` → `packing_solve`).
 */
export function durableName(subject: string): string {
  return subject.replace(/\./g, '_').replace(/\*/g, 'star').replace(/>/g, 'all').replace(/\s/g, '_');
}

function apiErrorCode(err: unknown): number | undefined {
  return err instanceof NatsError ? err.api_error?.err_code : undefined;
}

/** A connection status's detail as text: a server address or error code as it is, a server list as JSON. */
function statusText(data: Status['data']): string {
  return typeof data === 'object' ? JSON.stringify(data) : String(data);
}

/**
 * True when `err` says the stream (or consumer) is gone: the JetStream API's "not found", a pull
 * ended by "409 consumer deleted", or no responder at all for a JetStream subject (a server
 * restarted without its store has no stream listening on the subject).
 */
function isMissingResource(err: unknown): boolean {
  const code = apiErrorCode(err);
  if (code === STREAM_NOT_FOUND || code === CONSUMER_NOT_FOUND) return true;
  if (!(err instanceof NatsError)) return false;
  return err.code === String(ErrorCode.NoResponders) || (err.code === '409' && /consumer deleted/i.test(err.message));
}

/** True for errors of a first connection that waiting cannot mend: credentials, TLS, options. */
function isPermanentConnectError(err: unknown): boolean {
  if (!(err instanceof NatsError)) return false;
  if (err.isAuthError() || err.isPermissionError()) return true;
  return [
    ErrorCode.InvalidOption,
    ErrorCode.Tls,
    ErrorCode.WssRequired,
    ErrorCode.ServerOptionNotAvailable,
    ErrorCode.AuthorizationViolation,
  ].includes(err.code as ErrorCode);
}

function message(err: unknown): string {
  return err instanceof Error ? err.message || (err as NatsError).code || err.name : String(err);
}

/** Hands `status` to the listener; a listener that throws is logged, never breaks the bus. */
function tell(onStatus: ((status: NatsBusStatus) => void) | undefined, status: NatsBusStatus, log: Logger): void {
  try {
    onStatus?.(status);
  } catch (err) {
    log.error({ reason: message(err) }, 'nats bus: the status listener threw');
  }
}

/** Resolves after `ms`, or at once when `wake` (registered in `wakers`) is called. */
function pause(ms: number, wakers: Set<() => void>): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      wakers.delete(done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    wakers.add(done);
  });
}

/** One connection and its JetStream handles. */
interface Link {
  nc: NatsConnection;
  js: JetStreamClient;
  jsm: JetStreamManager;
}

/** One `consume()` call: its pull loop, in-flight deliveries and stop switch. */
interface Subscription {
  subject: string;
  concurrency: number;
  handler: (msg: BusMessage<unknown>) => Promise<void>;
  inFlight: Set<Promise<void>>;
  /** Wakes the loop when a handler finishes (a slot is free) or on close. */
  wake: (() => void) | undefined;
  batch: ConsumerMessages | undefined;
  closed: boolean;
  loop: Promise<void>;
}

/** Fixed settings of one bus. */
interface Settings {
  servers: string | string[];
  stream: string;
  subjects: string[];
  ackWaitMs: number;
  pullExpiresMs: number;
  timings: NatsBusTimings;
}

export class NatsBus implements Bus {
  private readonly subscriptions = new Set<Subscription>();
  private closed = false;
  /** Undefined while a new connection is being made after the client closed the last one. */
  private link: Link | undefined;
  /** Counts connections and reconnections: the stream and consumers are ensured once per epoch. */
  private epoch = 0;
  private streamEnsured: { epoch: number; done: Promise<void> } | undefined;
  private current: NatsBusStatus;
  /** Loops sleeping until the bus is up again, or in a backoff: woken on `up` and on close. */
  private readonly sleepers = new Set<() => void>();
  private redialing: Promise<void> | undefined;
  /** Signal listeners, subscribed again on each new connection. */
  private readonly signalListeners = new Set<SignalListener>();

  private constructor(
    link: Link,
    private readonly settings: Settings,
    private readonly pacing: ReconnectPacing,
    private readonly log: Logger,
    private readonly onStatus: ((status: NatsBusStatus) => void) | undefined,
  ) {
    this.link = link;
    this.current = { state: 'up', since: new Date().toISOString() };
    this.streamEnsured = { epoch: 0, done: Promise.resolve() };
  }

  /**
   * Connects and makes sure the work-queue stream exists and covers `subjects` (adding missing
   * subjects to an existing stream). While the server cannot be reached it waits for it (one
   * `warn` line, status `down`, attempts paced as reconnections), so a process started before
   * nats-server comes up when the server does. Throws at once for what waiting cannot mend:
   * refused credentials, TLS or option errors, and the stream's errors (e.g. subjects that
   * overlap another stream's).
   */
  static async connect(options: NatsBusOptions): Promise<NatsBus> {
    const settings: Settings = {
      servers: options.servers,
      stream: options.stream ?? 'PACKING',
      subjects: options.subjects ?? ['packing.>'],
      ackWaitMs: options.ackWaitMs ?? 30_000,
      pullExpiresMs: options.pullExpiresMs ?? 5_000,
      timings: { ...DEFAULT_NATS_BUS_TIMINGS, ...options.timings },
    };
    const log = options.log ?? pino({ level: 'silent' });
    const pacing = new ReconnectPacing({
      minMs: settings.timings.reconnectMinWaitMs,
      maxMs: settings.timings.reconnectMaxWaitMs,
    });
    let waitingSince: number | undefined;
    let nc: NatsConnection;
    for (;;) {
      try {
        nc = await connect(connectionOptions(settings, pacing));
        break;
      } catch (err) {
        if (isPermanentConnectError(err)) throw err;
        if (waitingSince === undefined) {
          waitingSince = Date.now();
          const reason = `nats-server not reachable: ${message(err)}`;
          log.warn({ servers: settings.servers, reason }, 'nats bus: waiting for the server');
          tell(options.onStatus, { state: 'down', since: new Date(waitingSince).toISOString(), reason }, log);
        }
        pacing.attempted();
        await new Promise((resolve) => setTimeout(resolve, pacing.delayMs()));
      }
    }
    pacing.reset();
    try {
      const link = await openLink(nc);
      await ensureStream(link.jsm, settings.stream, settings.subjects);
      const bus = new NatsBus(link, settings, pacing, log, options.onStatus);
      bus.watch(link);
      if (waitingSince !== undefined) {
        log.info({ server: nc.getServer(), waitedMs: Date.now() - waitingSince }, 'nats bus: connected');
        tell(options.onStatus, bus.status, log);
      }
      return bus;
    } catch (err) {
      await nc.close().catch(() => undefined);
      throw err;
    }
  }

  /** The connection's current state (for /health). */
  get status(): NatsBusStatus {
    return { ...this.current };
  }

  /**
   * Publishes `data` (JSON) with JetStream message id `id`; the same id within the duplicate
   * window (2 h) is acknowledged by the server but not stored again. When the server no longer
   * has the stream (restarted without its store) the stream is made again and the publish tried
   * once more. While the bus is down it first waits for the connection, up to `publishWaitMs`
   * (the client drops whatever is sent while it is disconnected). Throws when the bus is closed or
   * still down after that wait, when no stream covers `subject`, or when the server does not
   * answer within the JetStream timeout (5 s).
   */
  async publish(subject: string, id: string, data: unknown): Promise<void> {
    if (this.closed) throw new Error('NatsBus is closed');
    await this.untilUp(this.settings.timings.publishWaitMs);
    const link = this.link;
    if (this.closed) throw new Error('NatsBus is closed');
    if (!link || this.current.state === 'down') {
      throw new Error(`NATS bus is down since ${this.current.since}: ${this.current.reason ?? 'not connected'}`);
    }
    await this.ensureStreamOnce(link);
    try {
      await link.js.publish(subject, codec.encode(data), { msgID: id });
    } catch (err) {
      if (!isMissingResource(err) || this.closed) throw err;
      this.log.warn(
        { subject, stream: this.settings.stream, reason: message(err) },
        'nats bus: the stream is missing; making it again before publishing once more',
      );
      this.forgetStream();
      await this.ensureStreamOnce(link);
      await link.js.publish(subject, codec.encode(data), { msgID: id });
    }
  }

  /**
   * Pulls messages of `subject` through the durable consumer {@link durableName}(subject), shared
   * by every process consuming that subject, so each message goes to one of them at a time.
   * Never asks the server for more messages than free handler slots, so nothing waits in a
   * local buffer while its ack deadline runs. While the bus is down the loop waits for it; a
   * failing pull is logged once, retried with a capped backoff, and its recovery logged once.
   */
  consume<T>(subject: string, handler: (msg: BusMessage<T>) => Promise<void>, concurrency = 1): BusConsumer {
    if (this.closed) throw new Error('NatsBus is closed');
    const sub: Subscription = {
      subject,
      concurrency: Math.max(1, Math.floor(concurrency)),
      handler: handler as (msg: BusMessage<unknown>) => Promise<void>,
      inFlight: new Set(),
      wake: undefined,
      batch: undefined,
      closed: false,
      loop: Promise.resolve(),
    };
    sub.loop = this.pull(sub);
    this.subscriptions.add(sub);
    return { close: () => this.stop(sub) };
  }

  /**
   * Stops pulling, waits for in-flight handlers (their settlements are sent), then drains the
   * connection; a connection that is down, broken or slow to drain (5 s) is closed outright.
   * Never throws: a failure to drain or close is logged.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.wakeSleepers();
    await Promise.all([...this.subscriptions].map((sub) => this.stop(sub)));
    await this.redialing;
    const link = this.link;
    if (!link || link.nc.isClosed()) return;
    try {
      if (this.current.state === 'down') throw new Error(`not connected: ${this.current.reason ?? 'down'}`);
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`drain took longer than ${DRAIN_TIMEOUT_MS} ms`)), DRAIN_TIMEOUT_MS);
      });
      try {
        await Promise.race([link.nc.drain(), timeout]);
      } finally {
        clearTimeout(timer);
      }
    } catch (err) {
      this.log.warn({ reason: message(err) }, 'nats bus: could not drain the connection; closing it');
      await link.nc
        .close()
        .catch((closeErr: unknown) =>
          this.log.warn({ reason: message(closeErr) }, 'nats bus: closing the connection failed'),
        );
    }
  }

  /**
   * Records a new state, or a new reason of the same state (`since` kept), and tells `onStatus`;
   * false when nothing changed.
   */
  private setStatus(state: NatsBusStatus['state'], reason?: string): boolean {
    if (this.current.state === state && this.current.reason === reason) return false;
    const since = this.current.state === state ? this.current.since : new Date().toISOString();
    this.current = { state, since, ...(reason !== undefined ? { reason } : {}) };
    tell(this.onStatus, this.status, this.log);
    if (state === 'up') this.wakeSleepers();
    return true;
  }

  /** Resolves when the bus is up, closed, or after `ms`. */
  private async untilUp(ms: number): Promise<void> {
    const deadline = Date.now() + ms;
    while (!this.closed && (this.current.state === 'down' || !this.link) && Date.now() < deadline) {
      await pause(deadline - Date.now(), this.sleepers);
    }
  }

  private wakeSleepers(): void {
    for (const wake of [...this.sleepers]) wake();
  }

  /**
   * Follows the connection's status events and its end: one log line per change of state (the
   * client's repeated attempts are counted, not logged), a new epoch after each reconnection (the
   * stream and consumers are ensured again), and a new connection if the client closes this one.
   */
  private watch(link: Link): void {
    const { nc } = link;
    const watching = (async () => {
      let stale = false;
      let downAt = 0;
      const errorsLogged = new Set<string>();
      for await (const s of nc.status()) {
        switch (s.type) {
          case DebugEvents.StaleConnection:
            stale = true;
            break;
          case Events.Disconnect: {
            downAt = Date.now();
            const reason = stale
              ? `stale connection to ${statusText(s.data)}: no answer to ${this.settings.timings.maxPingOut} pings`
              : `disconnected from ${statusText(s.data)}`;
            stale = false;
            if (this.setStatus('down', reason)) this.log.warn({ server: s.data, reason }, 'nats bus: disconnected');
            break;
          }
          case DebugEvents.Reconnecting:
            this.pacing.attempted();
            if (this.pacing.attempts === 1) this.log.info({ server: s.data }, 'nats bus: reconnecting');
            break;
          case Events.Reconnect: {
            const attempts = this.pacing.attempts;
            this.pacing.reset();
            errorsLogged.clear();
            this.epoch += 1;
            if (this.setStatus('up'))
              this.log.info({ server: s.data, attempts, downMs: Date.now() - downAt }, 'nats bus: reconnected');
            // Ensured ahead of the next publish or pull; a failure here is retried by them.
            this.ensureStreamOnce(link).catch((err: unknown) =>
              this.log.warn(
                { reason: message(err) },
                'nats bus: ensuring the stream after reconnecting failed; retried on use',
              ),
            );
            break;
          }
          case Events.LDM:
            this.log.warn({ server: s.data }, 'nats bus: the server is entering lame duck mode');
            break;
          case Events.Error:
            if (!errorsLogged.has(statusText(s.data))) {
              errorsLogged.add(statusText(s.data));
              this.log.warn({ code: s.data }, 'nats bus: the server reported an error');
            }
            break;
          default:
          // pings and cluster updates: no change of state
        }
      }
    })();
    watching.catch((err: unknown) =>
      this.log.error({ reason: message(err) }, 'nats bus: following the connection status failed'),
    );
    void nc.closed().then((err) => this.connectionClosed(link, err));
  }

  /**
   * The client closed `link` (by `close()`, or for good after e.g. refused credentials): the
   * status says `down` with the reason; unless the bus is closing, new connections are made
   * (paced, up to one every 30 s) until one succeeds, so the bus never sits dead.
   */
  private connectionClosed(link: Link, err: Error | void): void {
    if (this.link !== link) return;
    if (this.closed) {
      this.setStatus('down', 'bus closed');
      return;
    }
    const reason = `connection closed: ${err ? message(err) : 'by the client'}`;
    this.link = undefined;
    if (this.setStatus('down', reason)) this.log.error({ reason }, 'nats bus: connection closed; making a new one');
    this.redialing = this.redial().finally(() => (this.redialing = undefined));
  }

  private async redial(): Promise<void> {
    const started = Date.now();
    let failures = 0;
    while (!this.closed) {
      try {
        const nc = await connect(connectionOptions(this.settings, this.pacing));
        if (this.closed) {
          await nc.close().catch(() => undefined);
          return;
        }
        const link = await openLink(nc);
        this.pacing.reset();
        this.link = link;
        this.epoch += 1;
        this.watch(link);
        for (const listener of this.signalListeners) this.subscribeSignal(link, listener);
        if (this.setStatus('up'))
          this.log.info(
            { server: nc.getServer(), attempts: failures + 1, downMs: Date.now() - started },
            'nats bus: connected again',
          );
        return;
      } catch (err) {
        failures += 1;
        if (failures === 1) this.log.warn({ reason: message(err) }, 'nats bus: a new connection failed; retrying');
        const bounds = isPermanentConnectError(err)
          ? { minMs: this.settings.timings.reconnectMaxWaitMs, maxMs: REDIAL_MAX_WAIT_MS }
          : { minMs: this.settings.timings.reconnectMinWaitMs, maxMs: this.settings.timings.reconnectMaxWaitMs };
        await pause(backoffDelay(failures, bounds), this.sleepers);
      }
    }
  }

  /** Makes sure the stream exists once per epoch; a failure lets the next call try again. */
  private ensureStreamOnce(link: Link): Promise<void> {
    const epoch = this.epoch;
    if (this.streamEnsured?.epoch !== epoch) {
      const done = ensureStream(link.jsm, this.settings.stream, this.settings.subjects);
      const entry = { epoch, done };
      this.streamEnsured = entry;
      done.catch(() => {
        if (this.streamEnsured === entry) this.streamEnsured = undefined;
      });
    }
    return this.streamEnsured.done;
  }

  /** The stream was found missing: the next {@link ensureStreamOnce} asks the server again. */
  private forgetStream(): void {
    this.streamEnsured = undefined;
  }

  private async stop(sub: Subscription): Promise<void> {
    sub.closed = true;
    sub.batch?.stop();
    sub.wake?.();
    await sub.loop;
    await Promise.all(sub.inFlight);
    this.subscriptions.delete(sub);
  }

  /** Sleeps until `wake` (a free slot, close), the bus coming up, or `ms`. */
  private async sleep(sub: Subscription, ms: number): Promise<void> {
    const wakers = new Set<() => void>();
    const slept = pause(ms, wakers);
    const wake = [...wakers][0]!;
    sub.wake = wake;
    this.sleepers.add(wake);
    await slept;
    this.sleepers.delete(wake);
    sub.wake = undefined;
  }

  private async pull(sub: Subscription): Promise<void> {
    let consumer: Awaited<ReturnType<JetStreamClient['consumers']['get']>> | undefined;
    let consumerEpoch = -1;
    let failures = 0;
    let failingSince = 0;
    while (!sub.closed) {
      try {
        if (sub.inFlight.size >= sub.concurrency) {
          await new Promise<void>((resolve) => (sub.wake = resolve));
          sub.wake = undefined;
          continue;
        }
        const link = this.link;
        if (!link || this.current.state === 'down') {
          // Nothing to pull from: wait for the connection (woken by `up`), checking now and then.
          await this.sleep(sub, this.settings.timings.pullRetryMaxWaitMs);
          continue;
        }
        if (!consumer || consumerEpoch !== this.epoch) {
          const epoch = this.epoch;
          await this.ensureStreamOnce(link);
          await ensureConsumer(link.jsm, this.settings.stream, sub.subject, this.settings.ackWaitMs);
          consumer = await link.js.consumers.get(this.settings.stream, durableName(sub.subject));
          consumerEpoch = epoch;
        }
        sub.batch = await consumer.fetch({
          max_messages: sub.concurrency - sub.inFlight.size,
          expires: this.settings.pullExpiresMs,
        });
        if (sub.closed) sub.batch.stop();
        for await (const m of sub.batch) this.deliver(sub, m);
        sub.batch = undefined;
        if (failures > 0) {
          this.log.info(
            { subject: sub.subject, failures, ms: Date.now() - failingSince },
            'nats bus: pulling works again',
          );
          failures = 0;
        }
      } catch (err) {
        sub.batch = undefined;
        if (sub.closed) break;
        // The consumer or stream may be gone (server restarted without its store): make them again.
        if (isMissingResource(err)) {
          consumer = undefined;
          if (apiErrorCode(err) !== CONSUMER_NOT_FOUND) this.forgetStream();
        }
        failures += 1;
        if (failures === 1) {
          failingSince = Date.now();
          this.log.warn(
            { subject: sub.subject, reason: message(err) },
            'nats bus: pulling failed; retrying with backoff',
          );
        } else
          this.log.debug({ subject: sub.subject, failures, reason: message(err) }, 'nats bus: pulling failed again');
        await this.sleep(
          sub,
          backoffDelay(failures, { minMs: PULL_RETRY_MIN_WAIT_MS, maxMs: this.settings.timings.pullRetryMaxWaitMs }),
        );
      }
    }
  }

  private deliver(sub: Subscription, m: JsMsg): void {
    let settled = false;
    // On a connection the client closed, a settlement throws: the message comes again after ack_wait.
    const send = (what: string, how: () => void): void => {
      try {
        how();
      } catch (err) {
        this.log.warn(
          { subject: m.subject, seq: m.seq, reason: message(err) },
          `nats bus: sending ${what} failed; the message is redelivered after ack_wait`,
        );
      }
    };
    const settle = (how: () => void, what: string): void => {
      if (settled) return;
      settled = true;
      send(what, how);
    };
    // Before 2.10.4 the server does not read `+TERM <reason>` as a term and redelivers the message.
    const termTakesReason = serverAtLeast(this.link?.nc.info?.version, [2, 10, 4]);
    let data: unknown;
    try {
      data = m.json();
    } catch {
      // A body that is not JSON can never be handled: do not let it circle forever.
      send('term', () => (termTakesReason ? m.term('body is not JSON') : m.term()));
      return;
    }
    const msg: BusMessage<unknown> = {
      id: m.headers?.get('Nats-Msg-Id') || String(m.seq),
      subject: m.subject,
      data,
      attempt: m.info.redeliveryCount,
      ack: () => settle(() => m.ack(), 'ack'),
      nak: (delayMs) => settle(() => m.nak(delayMs), 'nak'),
      working: () => {
        if (!settled) send('working', () => m.working());
      },
      term: (reason) => settle(() => (termTakesReason ? m.term(reason) : m.term()), 'term'),
    };
    const handling = Promise.resolve()
      .then(() => sub.handler(msg))
      .catch(() => undefined)
      // A handler that returns or throws without settling gets the message again, as in the in-process bus.
      .then(() => settle(() => m.nak(FAILED_HANDLER_DELAY_MS), 'nak'))
      .finally(() => {
        sub.inFlight.delete(handling);
        sub.wake?.();
      });
    sub.inFlight.add(handling);
  }

  /**
   * Signals (domain/ports/bus.ts): a core NATS publish, not JetStream, so nothing is stored and
   * every subscriber connected now hears it once. `subject` must lie outside the stream's
   * subjects (a stream covering it would store the signal as a work item). While the client
   * reconnects it buffers the publish. Throws when the bus is closed or has no connection (the
   * client closed the last one and a new one is being made).
   */
  async signal(subject: string, data: unknown): Promise<void> {
    if (this.closed) throw new Error('NatsBus is closed');
    const link = this.link;
    if (!link)
      throw new Error(`NATS bus is down since ${this.current.since}: ${this.current.reason ?? 'not connected'}`);
    link.nc.publish(subject, codec.encode(data));
  }

  /**
   * A core NATS subscription to `subject`: the client renews it after a reconnect, and the bus
   * subscribes it again on every new connection it makes. Bodies that are not JSON are dropped.
   */
  onSignal<T>(subject: string, handler: (data: T) => void): () => void {
    const listener: SignalListener = { subject, handler: handler as (data: unknown) => void, subscription: undefined };
    this.signalListeners.add(listener);
    if (this.link) this.subscribeSignal(this.link, listener);
    return () => {
      this.signalListeners.delete(listener);
      const sub = listener.subscription;
      if (sub && !sub.isClosed()) sub.unsubscribe();
    };
  }

  private subscribeSignal(link: Link, listener: SignalListener): void {
    listener.subscription = link.nc.subscribe(listener.subject, {
      callback: (err, m) => {
        if (err) return;
        let data: unknown;
        try {
          data = m.json();
        } catch {
          return;
        }
        try {
          listener.handler(data);
        } catch {
          // A listener's failure is its own: the signal is not delivered again (port rule).
        }
      },
    });
  }
}

/** One `onSignal` listener and its subscription on the current connection. */
interface SignalListener {
  subject: string;
  handler: (data: unknown) => void;
  subscription: NatsSubscription | undefined;
}

/**
 * Client options of every connection: reconnect for ever, paced by `pacing`; pings find a stalled
 * connection within `(maxPingOut + 1) · pingIntervalMs`; a handshake waits `connectTimeoutMs`.
 */
function connectionOptions(settings: Settings, pacing: ReconnectPacing): ConnectionOptions {
  const t = settings.timings;
  return {
    servers: settings.servers,
    name: `bus-${settings.stream}`,
    maxReconnectAttempts: -1,
    reconnectDelayHandler: () => pacing.delayMs(),
    pingInterval: t.pingIntervalMs,
    maxPingOut: t.maxPingOut,
    timeout: t.connectTimeoutMs,
  };
}

async function openLink(nc: NatsConnection): Promise<Link> {
  return { nc, js: nc.jetstream(), jsm: await nc.jetstreamManager() };
}

/** True when server version `version` (e.g. "2.9.10") is at least `min`. */
function serverAtLeast(version: string | undefined, min: [number, number, number]): boolean {
  const parts = (version ?? '0.0.0')
    .split(/[.-]/)
    .slice(0, 3)
    .map((p) => Number.parseInt(p, 10) || 0);
  for (let i = 0; i < 3; i += 1) {
    const have = parts[i] ?? 0;
    if (have !== min[i]) return have > min[i]!;
  }
  return true;
}

/** Creates the work-queue stream or adds the subjects it lacks. */
async function ensureStream(jsm: JetStreamManager, name: string, subjects: string[]): Promise<void> {
  try {
    const info = await jsm.streams.info(name);
    const missing = subjects.filter((s) => !info.config.subjects.includes(s));
    if (missing.length > 0)
      await jsm.streams.update(name, { ...info.config, subjects: [...info.config.subjects, ...missing] });
  } catch (err) {
    if (apiErrorCode(err) !== STREAM_NOT_FOUND) throw err;
    await jsm.streams.add({
      name,
      subjects,
      retention: RetentionPolicy.Workqueue,
      storage: StorageType.File,
      duplicate_window: nanos(DUPLICATE_WINDOW_MS),
    });
  }
}

/**
 * Creates the durable pull consumer of `subject` (explicit ack, unlimited deliveries) or updates
 * its ack wait. One filter subject per consumer: nats-server 2.9 has no `filter_subjects`.
 */
async function ensureConsumer(
  jsm: JetStreamManager,
  stream: string,
  subject: string,
  ackWaitMs: number,
): Promise<void> {
  const durable = durableName(subject);
  const config: Partial<ConsumerConfig> = {
    durable_name: durable,
    filter_subject: subject,
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    ack_wait: nanos(ackWaitMs),
    max_deliver: -1,
  };
  try {
    const info = await jsm.consumers.info(stream, durable);
    if (info.config.ack_wait !== config.ack_wait)
      await jsm.consumers.update(stream, durable, { ack_wait: config.ack_wait! });
  } catch (err) {
    if (apiErrorCode(err) !== CONSUMER_NOT_FOUND) throw err;
    await jsm.consumers.add(stream, config);
  }
}
