/**
 * NATS JetStream bus (DESIGN §2, distributed profile): one work-queue stream holds the messages,
 * one durable pull consumer per subject hands each message to exactly one solver node at a time,
 * and every delivery is settled explicitly (ack / nak(delay) / working / term).
 */
import {
  AckPolicy,
  DeliverPolicy,
  Events,
  JSONCodec,
  NatsError,
  RetentionPolicy,
  StorageType,
  connect,
  nanos,
  type ConsumerConfig,
  type ConsumerMessages,
  type JetStreamClient,
  type JetStreamManager,
  type JsMsg,
  type NatsConnection,
} from 'nats';
import type { Bus, BusConsumer, BusMessage } from '../../domain/ports/bus.js';

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
  /** Told about failures of a consume loop (which retries); default: written to stderr. */
  onError?: (err: unknown, subject: string) => void;
  /**
   * Called on connection state changes: `down` when the connection to the server is lost,
   * `up` when it is back; `since` is the RFC 3339 time of the change (api/dependency-health.ts).
   */
  onStatus?: (status: { state: 'up' | 'down'; since: string; reason?: string }) => void;
}

/** The same id published again within this window is dropped by JetStream (ms). */
const DUPLICATE_WINDOW_MS = 2 * 60 * 60 * 1000;
/** Redelivery delay of a message whose handler threw without settling it (ms); as the in-process bus. */
const FAILED_HANDLER_DELAY_MS = 1000;
/** Pause before a consume loop retries after an error, e.g. while the server restarts (ms). */
const RETRY_DELAY_MS = 500;
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

export class NatsBus implements Bus {
  private readonly subscriptions = new Set<Subscription>();
  private closed = false;

  private constructor(
    private readonly nc: NatsConnection,
    private readonly js: JetStreamClient,
    private readonly jsm: JetStreamManager,
    private readonly stream: string,
    private readonly ackWaitMs: number,
    private readonly pullExpiresMs: number,
    private readonly onError: (err: unknown, subject: string) => void,
    private readonly termTakesReason: boolean,
  ) {}

  /**
   * Connects and makes sure the work-queue stream exists and covers `subjects` (adding missing
   * subjects to an existing stream). Throws the driver's error when the server is unreachable or
   * the subjects overlap another stream's.
   */
  static async connect(options: NatsBusOptions): Promise<NatsBus> {
    const stream = options.stream ?? 'PACKING';
    const subjects = options.subjects ?? ['packing.>'];
    const nc = await connect({ servers: options.servers, name: `bus-${stream}` });
    if (options.onStatus) void reportStatus(nc, options.onStatus);
    try {
      const jsm = await nc.jetstreamManager();
      await ensureStream(jsm, stream, subjects);
      return new NatsBus(
        nc,
        nc.jetstream(),
        jsm,
        stream,
        options.ackWaitMs ?? 30_000,
        options.pullExpiresMs ?? 5_000,
        options.onError ?? ((err, subject) => console.error(`nats bus: consuming ${subject}:`, err)),
        serverAtLeast(nc.info?.version, [2, 10, 4]),
      );
    } catch (err) {
      await nc.close();
      throw err;
    }
  }

  /**
   * Publishes `data` (JSON) with JetStream message id `id`; the same id within the duplicate
   * window (2 h) is acknowledged by the server but not stored again. Throws when no stream
   * covers `subject` or the server does not answer.
   */
  async publish(subject: string, id: string, data: unknown): Promise<void> {
    if (this.closed) throw new Error('NatsBus is closed');
    await this.js.publish(subject, codec.encode(data), { msgID: id });
  }

  /**
   * Pulls messages of `subject` through the durable consumer {@link durableName}(subject), shared
   * by every process consuming that subject, so each message goes to one of them at a time.
   * Never asks the server for more messages than free handler slots, so nothing waits in a
   * local buffer while its ack deadline runs.
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

  /** Stops pulling, waits for in-flight handlers (their settlements are sent), then drains the connection. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([...this.subscriptions].map((sub) => this.stop(sub)));
    await this.nc.drain();
  }

  private async stop(sub: Subscription): Promise<void> {
    sub.closed = true;
    sub.batch?.stop();
    sub.wake?.();
    await sub.loop;
    await Promise.all(sub.inFlight);
    this.subscriptions.delete(sub);
  }

  private async pull(sub: Subscription): Promise<void> {
    let consumer: Awaited<ReturnType<JetStreamClient['consumers']['get']>> | undefined;
    while (!sub.closed) {
      try {
        if (sub.inFlight.size >= sub.concurrency) {
          await new Promise<void>((resolve) => (sub.wake = resolve));
          sub.wake = undefined;
          continue;
        }
        if (!consumer) {
          await ensureConsumer(this.jsm, this.stream, sub.subject, this.ackWaitMs);
          consumer = await this.js.consumers.get(this.stream, durableName(sub.subject));
        }
        sub.batch = await consumer.fetch({
          max_messages: sub.concurrency - sub.inFlight.size,
          expires: this.pullExpiresMs,
        });
        if (sub.closed) sub.batch.stop();
        for await (const m of sub.batch) this.deliver(sub, m);
        sub.batch = undefined;
      } catch (err) {
        sub.batch = undefined;
        if (sub.closed) break;
        // The consumer may be gone (stream deleted, server restarted without its store): re-create it.
        if (apiErrorCode(err) === CONSUMER_NOT_FOUND || apiErrorCode(err) === STREAM_NOT_FOUND) consumer = undefined;
        this.onError(err, sub.subject);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, RETRY_DELAY_MS);
          sub.wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        sub.wake = undefined;
      }
    }
  }

  private deliver(sub: Subscription, m: JsMsg): void {
    let settled = false;
    const settle = (how: () => void): void => {
      if (settled) return;
      settled = true;
      how();
    };
    let data: unknown;
    try {
      data = m.json();
    } catch {
      // A body that is not JSON can never be handled: do not let it circle forever.
      if (this.termTakesReason) m.term('body is not JSON');
      else m.term();
      return;
    }
    const msg: BusMessage<unknown> = {
      id: m.headers?.get('Nats-Msg-Id') || String(m.seq),
      subject: m.subject,
      data,
      attempt: m.info.redeliveryCount,
      ack: () => settle(() => m.ack()),
      nak: (delayMs) => settle(() => m.nak(delayMs)),
      working: () => {
        if (!settled) m.working();
      },
      // Before 2.10.4 the server does not read `+TERM <reason>` as a term and redelivers the message.
      term: (reason) => settle(() => (this.termTakesReason ? m.term(reason) : m.term())),
    };
    const handling = Promise.resolve()
      .then(() => sub.handler(msg))
      .catch(() => undefined)
      // A handler that returns or throws without settling gets the message again, as in the in-process bus.
      .then(() => settle(() => m.nak(FAILED_HANDLER_DELAY_MS)))
      .finally(() => {
        sub.inFlight.delete(handling);
        sub.wake?.();
      });
    sub.inFlight.add(handling);
  }
}

/** True when server version `version` (e.g. "2.9.10") is at least `min`. */
function serverAtLeast(version: string | undefined, min: [number, number, number]): boolean {
  const parts = (version ?? '0.0.0').split(/[.-]/).slice(0, 3).map((p) => Number.parseInt(p, 10) || 0);
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
    if (missing.length > 0) await jsm.streams.update(name, { ...info.config, subjects: [...info.config.subjects, ...missing] });
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
async function ensureConsumer(jsm: JetStreamManager, stream: string, subject: string, ackWaitMs: number): Promise<void> {
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
    if (info.config.ack_wait !== config.ack_wait) await jsm.consumers.update(stream, durable, { ack_wait: config.ack_wait! });
  } catch (err) {
    if (apiErrorCode(err) !== CONSUMER_NOT_FOUND) throw err;
    await jsm.consumers.add(stream, config);
  }
}

/**
 * Tells `onStatus` when the connection is lost (`down`) and when it is back (`up`), once per
 * change (NatsBusOptions.onStatus). Ends when the connection closes.
 */
async function reportStatus(nc: NatsConnection, onStatus: NonNullable<NatsBusOptions['onStatus']>): Promise<void> {
  let up = true;
  for await (const status of nc.status()) {
    if (status.type === Events.Disconnect && up) {
      up = false;
      onStatus({ state: 'down', since: new Date().toISOString(), reason: `disconnected from ${String(status.data)}` });
    } else if (status.type === Events.Reconnect && !up) {
      up = true;
      onStatus({ state: 'up', since: new Date().toISOString() });
    }
  }
}
