/**
 * An event store that fails on demand, around any EventStore (tests of store outages, DESIGN §2
 * distributed profile): subscriptions dropped every N events, and every call failing for a while
 * as a lost EventStoreDB connection does (`failFor(ms)`). Appends fail either BEFORE the inner
 * append (nothing stored) or AFTER it ("lost answer": stored, but the caller sees the error),
 * half each; callers survive both because appends are idempotent by their first event id
 * (domain/ports/event-store.ts). Counts every fault it injected.
 */
import type {
  AppendResult,
  EventStore,
  ExpectedRevision,
  NewEvent,
  RecordedEvent,
  Subscription,
} from '../../domain/ports/event-store.js';

/**
 * What the injected failures throw: shaped as @eventstore/db-client's UnavailableError (gRPC
 * status 14, `type: 'unavailable'`), the error a lost connection raises there.
 */
export class InjectedConnectionLoss extends Error {
  readonly type = 'unavailable';
  readonly code = 14;
  constructor(what: string) {
    super(`14 UNAVAILABLE: connection to the event store lost (injected fault: ${what})`);
    this.name = 'UnavailableError';
  }
}

/** Faults injected so far, by kind. */
export interface FaultCounts {
  /** Appends that failed before reaching the inner store (nothing stored). */
  appendsFailedBefore: number;
  /** Appends stored by the inner store whose answer was replaced by the error. */
  appendsLostAnswer: number;
  /** readStream / readLastEvent / readAll / headPosition / deleteStream calls that failed. */
  readsFailed: number;
  /** Subscriptions dropped after `dropSubscriptionsEvery` events. */
  subscriptionsDropped: number;
  /** Subscriptions ended (or refused) by an outage (`failFor`). */
  subscriptionsFailed: number;
  /** Outages begun with `failFor`. */
  outages: number;
}

/** A timetable of faults (the FAULTS variable of test/helpers/faulty-service-main.ts). */
export interface FaultPlan {
  /** Drop every subscription after this many events (0 or absent: never). */
  dropEvery?: number;
  /** Begin an outage about this often, ms: each interval at random between half and one and a half times it (absent: never). */
  failEveryMs?: number;
  /** Length of each outage, ms (default 1000). */
  failForMs?: number;
  /** One-shot outages at the first append of each type, before or after it is stored (`cutOffNextAppendOf`). */
  cutOff?: { type: string; when: 'before' | 'after' }[];
}

export const NO_FAULTS: FaultCounts = {
  appendsFailedBefore: 0,
  appendsLostAnswer: 0,
  readsFailed: 0,
  subscriptionsDropped: 0,
  subscriptionsFailed: 0,
  outages: 0,
};

export class FaultyEventStore implements EventStore {
  private failingUntil = 0;
  private dropEvery = 0;
  private readonly live = new Set<(err: Error) => void>();
  private readonly tally: FaultCounts = { ...NO_FAULTS };
  private readonly cutOffs = new Map<string, { ms: number; when: 'before' | 'after' }>();

  /** `random` picks before/after for failed appends (default Math.random). */
  constructor(
    readonly inner: EventStore,
    private readonly random: () => number = Math.random,
  ) {}

  /** The faults injected so far (a copy). */
  get counts(): FaultCounts {
    return { ...this.tally };
  }

  /** Whether calls fail now. */
  get failing(): boolean {
    return Date.now() < this.failingUntil;
  }

  /** Every call fails for the next `ms` ms, and every open subscription fails at once. */
  failFor(ms: number): void {
    this.failingUntil = Math.max(this.failingUntil, Date.now() + ms);
    this.tally.outages++;
    for (const fail of [...this.live]) fail(new InjectedConnectionLoss('outage'));
  }

  /** Each subscription is dropped (throws) after every `n` events it delivered; 0 turns it off. */
  dropSubscriptionsEvery(n: number): void {
    this.dropEvery = Math.max(0, Math.floor(n));
  }

  /**
   * An outage of `ms` begins at the next append holding an event of type `type`: `before` it is
   * stored (nothing stored), or `after` (stored, but the caller sees the error of a lost answer: a
   * step cut off half way).
   */
  cutOffNextAppendOf(type: string, ms: number, when: 'before' | 'after'): void {
    this.cutOffs.set(type, { ms, when });
  }

  /** Ends the outage and stops dropping subscriptions. */
  heal(): void {
    this.failingUntil = 0;
    this.dropEvery = 0;
  }

  private refuseRead(what: string): void {
    if (!this.failing) return;
    this.tally.readsFailed++;
    throw new InjectedConnectionLoss(what);
  }

  async append(stream: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    const trigger = events.find((e) => this.cutOffs.has(e.type))?.type;
    if (trigger !== undefined && !this.failing) {
      const { ms, when } = this.cutOffs.get(trigger)!;
      this.cutOffs.delete(trigger);
      if (when === 'before') {
        this.failFor(ms);
        this.tally.appendsFailedBefore++;
        throw new InjectedConnectionLoss(`append of ${trigger}, nothing stored`);
      }
      await this.inner.append(stream, events, expected);
      this.failFor(ms);
      this.tally.appendsLostAnswer++;
      throw new InjectedConnectionLoss(`append of ${trigger} stored, answer lost`);
    }
    if (!this.failing) return this.inner.append(stream, events, expected);
    if (this.random() < 0.5) {
      this.tally.appendsFailedBefore++;
      throw new InjectedConnectionLoss('append, nothing stored');
    }
    await this.inner.append(stream, events, expected);
    this.tally.appendsLostAnswer++;
    throw new InjectedConnectionLoss('append stored, answer lost');
  }

  async readStream(stream: string, fromRevision?: number): Promise<RecordedEvent[]> {
    this.refuseRead('readStream');
    return this.inner.readStream(stream, fromRevision);
  }

  async readLastEvent(stream: string): Promise<RecordedEvent | undefined> {
    this.refuseRead('readLastEvent');
    return this.inner.readLastEvent(stream);
  }

  async readAll(after: number, limit: number): Promise<RecordedEvent[]> {
    this.refuseRead('readAll');
    return this.inner.readAll(after, limit);
  }

  async headPosition(): Promise<number> {
    this.refuseRead('headPosition');
    return this.inner.headPosition();
  }

  async deleteStream(stream: string): Promise<number> {
    this.refuseRead('deleteStream');
    return this.inner.deleteStream(stream);
  }

  /**
   * The inner subscription, failing as a dropped connection does: at once while an outage lasts
   * (also when it begins while the subscriber waits), and before the next event after every
   * `dropSubscriptionsEvery` events (that event is not delivered: a resubscription reads it again).
   */
  subscribeAll(after: number): Subscription<RecordedEvent> {
    const inner = this.inner.subscribeAll(after);
    const store = this;
    let failNow: (err: Error) => void = () => undefined;
    const failure = new Promise<never>((_, reject) => {
      failNow = reject;
    });
    failure.catch(() => undefined); // raced below; never unhandled
    async function* iterate(): AsyncGenerator<RecordedEvent> {
      const it = inner[Symbol.asyncIterator]();
      store.live.add(failNow);
      let delivered = 0;
      try {
        if (store.failing) {
          store.tally.subscriptionsFailed++;
          throw new InjectedConnectionLoss('subscribe');
        }
        for (;;) {
          let next: IteratorResult<RecordedEvent>;
          try {
            next = await Promise.race([it.next(), failure]);
          } catch (err) {
            if (err instanceof InjectedConnectionLoss) store.tally.subscriptionsFailed++;
            throw err;
          }
          if (next.done) return;
          if (store.dropEvery > 0 && delivered >= store.dropEvery) {
            store.tally.subscriptionsDropped++;
            throw new InjectedConnectionLoss(`subscription dropped after ${delivered} events`);
          }
          delivered++;
          yield next.value;
        }
      } finally {
        store.live.delete(failNow);
        inner.close();
      }
    }
    const iterator = iterate();
    return {
      [Symbol.asyncIterator]: () => iterator,
      close: () => {
        store.live.delete(failNow);
        inner.close();
      },
      poll: () => inner.poll?.(),
    };
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

/**
 * Runs `plan` on `store`: sets its drop interval and cut-offs, and starts an outage every
 * `failEveryMs`; `onOutage` is told of each timed one. Returns the stop (which heals the store).
 */
export function runFaultPlan(store: FaultyEventStore, plan: FaultPlan, onOutage?: (ms: number) => void): () => void {
  if (plan.dropEvery) store.dropSubscriptionsEvery(plan.dropEvery);
  const failForMs = plan.failForMs ?? 1000;
  for (const { type, when } of plan.cutOff ?? []) store.cutOffNextAppendOf(type, failForMs, when);
  let timer: NodeJS.Timeout | undefined;
  const every = plan.failEveryMs;
  // Outages at jittered intervals (half to one and a half times `failEveryMs`): a fixed period
  // would stay in phase with the service's own timers (the repair tick) and test only that phase.
  const next = (): void => {
    if (!every) return;
    timer = setTimeout(
      () => {
        store.failFor(failForMs);
        onOutage?.(failForMs);
        next();
      },
      every * (0.5 + Math.random()),
    );
    timer.unref();
  };
  next();
  return () => {
    if (timer) clearTimeout(timer);
    store.heal();
  };
}
