/**
 * A service process whose admissions stop right after the Idempotency-Key claim, to be killed
 * there (the concurrency suite's crash between the claim and the queueing). Run as
 * `node --import tsx test/helpers/stalled-admission.ts <data dir>`: it starts the embedded
 * service on the data dir with a fault-injecting decorator around the event store port, which
 * lets every append through but, once an IdempotencyKeyClaimed was stored, holds every later
 * append to an organization's ledger for ever (the admission's hold never comes). It prints one
 * JSON line `{"ready": url}` when listening and `{"claimed": stream}` once a claim is stored.
 */
import { pino } from 'pino';
import { startService } from '../../service/server.js';
import type { EventStore } from '../../domain/ports/event-store.js';
import { ledgerOrgId } from '../../domain/ledger/streams.js';
import { storeView } from './store-view.js';

/** The event store `inner`, with every ledger append held for ever once a claim was stored. */
function stallAfterClaim(inner: EventStore): EventStore {
  let claimed = false;
  return storeView(inner, async (stream, events, expected) => {
    if (claimed && ledgerOrgId(stream) !== undefined) return new Promise<never>(() => {});
    const result = await inner.append(stream, events, expected);
    if (events.some((e) => e.type === 'IdempotencyKeyClaimed')) {
      claimed = true;
      process.stdout.write(`${JSON.stringify({ claimed: stream })}\n`);
    }
    return result;
  });
}

const dataDir = process.argv[2];
if (!dataDir) throw new Error('usage: stalled-admission.ts <data dir>');
const running = await startService({
  port: 0,
  host: '127.0.0.1',
  dataDir,
  solverThreads: 1,
  log: pino({ level: 'silent' }),
  decorateStore: stallAfterClaim,
});
process.stdout.write(`${JSON.stringify({ ready: running.url })}\n`);
