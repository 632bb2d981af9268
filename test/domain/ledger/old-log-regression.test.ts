/**
 * The ledger regression: a log written by the ledger code of before (running sums and persistent
 * collections came later; test/fixtures/ledger-log/make-fixture.ts tells how it was made) is read
 * by today's code, and every figure matches what the old code made of it, to the micro-credit:
 * the decider's fold (handleCommand / loadState, old snapshots ignored), the balances projection
 * through the ProjectionRunner into a SQLite read store, start-up recovery's open reservations,
 * and the billing audit replay (`npm run replay-billing`).
 */
import t from 'tap';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { SqliteEventStore } from '../../../adapters/sqlite/event-store.js';
import { SqliteReadStore } from '../../../adapters/sqlite/read-store.js';
import { handleCommand, loadState, snapshotStream } from '../../../domain/decider/handle.js';
import { ledgerDecider } from '../../../domain/ledger/decide.js';
import {
  availableCredits,
  encodeLedger,
  heldCredits,
  queuedJobIds,
  runningJobIds,
  usableSubscription,
  type LedgerState,
} from '../../../domain/ledger/ledger.js';
import { ledgerStream } from '../../../domain/ledger/streams.js';
import { PROJECTIONS } from '../../../projections/all.js';
import {
  BALANCES,
  RESERVATIONS,
  type BalanceDocument,
  type ReservationDocument,
} from '../../../projections/balances/projection.js';
import { repairReads } from '../../../projections/jobs/repair-reads.js';
import { ProjectionRunner } from '../../../projections/runner.js';
import { READ_MODEL_VERSION } from '../../../projections/version.js';
import { nodeChild } from '../../helpers/node-child.js';

const FIXTURE = fileURLToPath(new URL('../../fixtures/ledger-log/', import.meta.url));
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

interface FixtureEvent {
  position: number;
  stream: string;
  id: string;
  type: string;
  data: unknown;
}
interface Figures {
  subscription: number;
  purchased: number;
  held: number;
  available: number;
}
interface ExpectedOrg {
  orgId: string;
  document: {
    id: string;
    subscription: number;
    subscriptionExpiresAt: string | null;
    purchased: number;
    reserved: number;
    position: number;
  };
  ledgerEvents: number;
  at: Record<string, Figures>;
  reservations: Record<string, number>;
  queue: string[];
  running: string[];
}
const expected = JSON.parse(readFileSync(join(FIXTURE, 'expected.json'), 'utf8')) as {
  times: string[];
  events: number;
  balances: Record<string, ExpectedOrg>;
};
const events = gunzipSync(readFileSync(join(FIXTURE, 'events.jsonl.gz')))
  .toString('utf8')
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line) as FixtureEvent);

/** A SQLite event store in `dir` holding the fixture's events at their positions. */
async function loadedStore(dir: string): Promise<SqliteEventStore> {
  const store = new SqliteEventStore(join(dir, 'events.db'));
  for (const e of events) {
    const { position } = await store.append(e.stream, [{ id: e.id, type: e.type, data: e.data }], 'any');
    if (position !== e.position) throw new Error(`event ${e.id} at ${position}, recorded at ${e.position}`);
  }
  return store;
}

const figuresAt = (state: LedgerState, at: string): Figures => ({
  subscription: usableSubscription(state, at),
  purchased: state.purchased,
  held: heldCredits(state, at),
  available: availableCredits(state, at),
});
const holdsOf = (state: LedgerState): Record<string, number> => state.holds.map((h) => h.reserved).toObject();

t.test('the fixture is the mix it claims', async (t) => {
  t.equal(events.length, expected.events);
  const settled = events.filter((e) => e.type === 'JobSettled').map((e) => e.data as { outcome: string });
  t.same([...new Set(settled.map((s) => s.outcome))].sort(), [
    'canceled',
    'engine_failed',
    'queue_timeout',
    'server_restarted',
    'succeeded',
    'time_limit_exceeded',
  ]);
  t.ok(
    events.some((e) => e.type === 'SubscriptionCreditsExpired'),
    'a subscription expired while jobs were held',
  );
  t.ok(
    events.some((e) => e.type === 'Snapshot' && (e.data as { version: number }).version === 1),
    'an old snapshot',
  );
  t.ok(expected.balances['alpha']!.ledgerEvents > 100, 'a ledger of more than 100 events');
});

t.test('the decider folds the old log to the same ledgers, ignoring the old snapshots', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ledger-regression-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const store = await loadedStore(dir);
  for (const [label, org] of Object.entries(expected.balances)) {
    const { state, revision } = await loadState(store, ledgerStream(org.orgId), ledgerDecider);
    t.equal(revision + 1, org.ledgerEvents, `${label}: every ledger event read`);
    for (const at of expected.times) t.same(figuresAt(state, at), org.at[at], `${label} at ${at}`);
    t.same(holdsOf(state), org.reservations, `${label}: open reservations`);
    t.same(queuedJobIds(state), org.queue, `${label}: queue order`);
    t.same(runningJobIds(state).sort(), [...org.running].sort(), `${label}: running`);
    t.equal(state.reserved, org.document.reserved, `${label}: reserved sum`);
    t.equal(state.queued, org.queue.length);
    t.equal(state.running, org.running.length);
  }

  // The next command decides on that state and writes the first snapshot of the new version.
  const alpha = expected.balances['alpha']!;
  const stream = ledgerStream(alpha.orgId);
  const handled = await handleCommand(store, stream, ledgerDecider, {
    type: 'StartNextJob',
    data: { concurrency: 3 },
    metadata: { now: '2026-02-10T00:00:00.000Z', actor: { id: 'usr_t', name: 'T' } },
  });
  t.same(
    handled.events.map((e) => e.data),
    [{ jobId: alpha.queue[0], startedAt: '2026-02-10T00:00:00.000Z' }],
    'a third slot goes to the oldest queued job',
  );
  const snapshots = await store.readStream(snapshotStream(stream));
  const latest = snapshots.at(-1)!.data as { version: number; revision: number };
  t.equal(latest.version, 2, 'a snapshot of the new version');
  t.equal(latest.revision, alpha.ledgerEvents);
  await store.close();

  // Another process (no cached state) starts from it and gets the same state.
  const reopened = new SqliteEventStore(join(dir, 'events.db'));
  const fromSnapshot = await loadState(reopened, stream, ledgerDecider);
  t.equal(fromSnapshot.snapshotRevision, alpha.ledgerEvents);
  t.same(encodeLedger(fromSnapshot.state), encodeLedger(handled.state));
  t.same(queuedJobIds(fromSnapshot.state), alpha.queue.slice(1));
  await reopened.close();
});

t.test('the balances projection (runner, SQLite read store) and recovery read the same figures', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ledger-regression-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const store = await loadedStore(dir);
  const reads = new SqliteReadStore(join(dir, 'reads.db'), READ_MODEL_VERSION);
  const runner = new ProjectionRunner(store, reads, [...PROJECTIONS]);
  await runner.catchUp();
  const ledgers = await repairReads(reads).ledgers();
  for (const [label, org] of Object.entries(expected.balances)) {
    const doc = (await reads.collection<BalanceDocument>(BALANCES).get(org.orgId))!;
    t.same(
      doc,
      { ...org.document, queued: org.queue.length, running: org.running.length },
      `${label}: the balance document`,
    );
    for (const at of expected.times) {
      t.same(
        {
          subscription: usableSubscription(doc, at),
          purchased: doc.purchased,
          held: heldCredits(doc, at),
          available: availableCredits(doc, at),
        },
        org.at[at],
        `${label}: the balance at ${at}`,
      );
    }
    const open = await reads.collection<ReservationDocument>(RESERVATIONS).find({ where: { orgId: org.orgId } });
    t.same(
      Object.fromEntries(open.map((r) => [r.id, r.reserved])),
      org.reservations,
      `${label}: reservation documents`,
    );
    t.same(
      open
        .filter((r) => r.status === 'running')
        .map((r) => r.id)
        .sort(),
      [...org.running].sort(),
    );
    const recovery = ledgers.find((l) => l.orgId === org.orgId);
    t.same(
      recovery,
      { orgId: org.orgId, queued: org.queue.length, heldJobIds: [...org.running, ...org.queue].sort() },
      `${label}: what start-up recovery lists`,
    );
  }
  await runner.stop();
  await reads.close();
  await store.close();
});

t.test('npm run replay-billing finds no difference and the same balances', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ledger-regression-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  await (await loadedStore(dir)).close();
  // The reloaded events are recorded now: an as-of after them, past every expiry of the fixture.
  const { stdout } = await promisify(execFile)(
    ...nodeChild([
      '--import',
      'tsx',
      'scripts/replay-billing.ts',
      '--json',
      '--data-dir',
      dir,
      '--as-of',
      '2099-01-01T00:00:00Z',
    ]),
    { cwd: ROOT, env: { ...process.env, PACKING_EVENT_STORE: 'sqlite' } },
  );
  const report = JSON.parse(stdout) as {
    differences: number;
    organizations: {
      org_id: string;
      subscription_credits: number;
      purchased_credits: number;
      reserved_credits: number;
      available_credits: number;
    }[];
  };
  t.equal(report.differences, 0);
  const last = expected.times.at(-1)!; // after every expiry, like the audit's as-of
  for (const [label, org] of Object.entries(expected.balances)) {
    const line = report.organizations.find((o) => o.org_id === org.orgId)!;
    const want = org.at[last]!;
    t.same(
      [line.subscription_credits, line.purchased_credits, line.reserved_credits, line.available_credits],
      [want.subscription, want.purchased, want.held, want.available].map((m) => m / 1_000_000),
      `${label}: the audit's balance`,
    );
  }
});
