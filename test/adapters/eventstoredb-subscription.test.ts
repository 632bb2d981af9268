/**
 * The EventStoreDB adapter's subscription under a lost connection, without a server: the driver's
 * client is replaced by a stand-in whose `$all` subscriptions deliver events and then fail as the
 * driver's do (an UnavailableError thrown by the iteration) or end without an error (a server
 * ending the call). The adapter's iteration must end with an error in both cases, and when a
 * deletion check fails, so that the resuming subscription (domain/log/resuming-subscription.ts)
 * subscribes again; through it every event is seen once, in order.
 */
import t from 'tap';
import { UnavailableError } from '@eventstore/db-client';
import { EventStoreDbEventStore, SubscriptionEnded } from '../../adapters/eventstoredb/event-store.js';
import type { StoredEvent } from '../../adapters/eventstoredb/records.js';
import { resumingSubscription } from '../../domain/log/resuming-subscription.js';
import type { RecordedEvent, Subscription } from '../../domain/ports/event-store.js';

/** The driver's error for a dropped connection (gRPC status 14). */
const connectionLost = (): Error =>
  new UnavailableError({
    code: 14,
    details: 'Connection dropped',
    message: '14 UNAVAILABLE: Connection dropped',
  } as never);

function stored(n: number, stream = `job-job_${n}`): StoredEvent {
  return {
    streamId: stream,
    id: `00000000-0000-5000-8000-${String(n).padStart(12, '0')}`,
    revision: 0n,
    type: 'Happened',
    created: new Date(0),
    data: { n },
    metadata: { eventId: `e${n}` },
    position: { commit: BigInt(n * 100), prepare: BigInt(n * 100) },
  };
}

/** How one subscription of the stand-in ends after its events: cleanly, with an error, or never. */
type Ending = 'end' | 'hang' | Error;

/**
 * A store whose client is a stand-in: subscription i delivers `log` (from the start: the adapter
 * skips what it has seen) up to `plan[i].deliver` events, then ends as `plan[i].ending` says.
 * Stream and metadata reads (deletion checks) answer with the event and no metadata, or throw
 * when `failReads` is set.
 */
function storeWith(
  log: StoredEvent[],
  plan: { deliver: number; ending: Ending }[],
  options: { failReads?: boolean; deletable?: string[] } = {},
) {
  let calls = 0;
  let unsubscribed = 0;
  const client = {
    subscribeToAll() {
      const step = plan[calls++] ?? { deliver: log.length, ending: 'hang' as Ending };
      let cancel!: () => void;
      const cancelled = new Promise<void>((resolve) => (cancel = resolve));
      async function* events(): AsyncGenerator<{ event: StoredEvent }> {
        for (const e of log.slice(0, step.deliver)) {
          await Promise.resolve();
          yield { event: e };
        }
        if (step.ending === 'hang') await cancelled;
        else if (step.ending instanceof Error) throw step.ending;
      }
      const iterator = events();
      return {
        [Symbol.asyncIterator]: () => iterator,
        unsubscribe: async () => {
          unsubscribed++;
          cancel();
        },
      };
    },
    async *readAll(options: { fromPosition: unknown }) {
      // The start of a resubscription: the event before `after` (any will do, events are skipped up to it).
      if (options.fromPosition !== undefined) yield { event: log[0] };
    },
    async *readStream() {
      if (options.failReads) throw connectionLost();
      yield { event: { ...log[0]!, revision: 0n } };
    },
    // The deletion check reads the stream's metadata (nothing set: not truncated, not deleted).
    async getStreamMetadata() {
      if (options.failReads) throw connectionLost();
      return { metadata: undefined };
    },
    dispose: async () => undefined,
  };
  const store = new EventStoreDbEventStore('esdb://127.0.0.1:1?tls=false', {
    deletableStreams: options.deletable ?? ['jobbody-'],
  });
  (store as unknown as { client: unknown }).client = client;
  return { store, calls: () => calls, unsubscribed: () => unsubscribed };
}

async function drain(sub: Subscription<RecordedEvent>): Promise<{ seen: number[]; error?: unknown }> {
  const seen: number[] = [];
  try {
    for await (const e of sub) seen.push(e.position);
    return { seen };
  } catch (error) {
    return { seen, error };
  }
}

const LOG = [1, 2, 3, 4, 5].map((n) => stored(n));

t.test('a lost connection ends the iteration with the driver error', async (t) => {
  const { store, unsubscribed } = storeWith(LOG, [{ deliver: 2, ending: connectionLost() }]);
  const { seen, error } = await drain(store.subscribeAll(0));
  t.same(seen, [100, 200], 'the events before the loss');
  t.type(error, UnavailableError, 'then the UnavailableError');
  t.equal(unsubscribed(), 1, 'the driver subscription was cancelled');
});

t.test('a call the server ends without an error is an error, not a silent end', async (t) => {
  const { store } = storeWith(LOG, [{ deliver: 3, ending: 'end' }]);
  const { seen, error } = await drain(store.subscribeAll(0));
  t.same(seen, [100, 200, 300], 'the events before the end');
  t.type(error, SubscriptionEnded, 'SubscriptionEnded');
});

t.test('a deletion check that fails ends the iteration with its error', async (t) => {
  const { store } = storeWith([stored(1, 'jobbody-job_1')], [{ deliver: 1, ending: 'hang' }], { failReads: true });
  const { seen, error } = await drain(store.subscribeAll(0));
  t.same(seen, [], 'the event whose check failed is not handed out');
  t.type(error, UnavailableError, 'the read error');
});

t.test('closing ends the iteration without an error', async (t) => {
  const { store } = storeWith(LOG, [{ deliver: 5, ending: 'hang' }]);
  const sub = store.subscribeAll(0);
  const it = sub[Symbol.asyncIterator]();
  for (let i = 0; i < 5; i++) await it.next();
  const pending = it.next();
  sub.close();
  t.same(await pending, { done: true, value: undefined }, 'done, no error');
  await store.close();
});

t.test('through a resuming subscription: every event once, in order, across losses and server ends', async (t) => {
  const { store, calls } = storeWith(LOG, [
    { deliver: 2, ending: connectionLost() },
    { deliver: 2, ending: 'end' },
    { deliver: 0, ending: connectionLost() },
    { deliver: 4, ending: connectionLost() },
  ]);
  const errors: string[] = [];
  const sub = resumingSubscription(store, 0, {
    minDelayMs: 1,
    maxDelayMs: 1,
    onError: (err) => errors.push((err as Error).constructor.name),
  });
  const seen: number[] = [];
  for await (const e of sub) {
    seen.push(e.position);
    if (seen.length === LOG.length) sub.close();
  }
  t.same(seen, [100, 200, 300, 400, 500], 'each event once');
  t.same(
    errors,
    ['UnavailableError', 'SubscriptionEnded', 'UnavailableError', 'UnavailableError'],
    'each failure reported',
  );
  t.equal(calls(), 5, 'subscribed five times');
  await store.close();
});
