/**
 * `node --import tsx scripts/bench-ledger.ts [--rounds N] [--store]`: the ledger's cost per command as the
 * number of held jobs grows. For 0, 1,000 and 10,000 jobs held (admitted, queued, never started:
 * one compute slot is taken by a job that never ends), it times rounds of AdmitJob → StartNextJob
 * → SettleJob on one organization's ledger: the decider's decide + evolve (what handleCommand does
 * on a cached state) and the balances projection applying the same events to an in-memory read
 * store; with `--store`, also handleCommand against an in-memory SQLite event store (appends and
 * snapshots included, at most 500 rounds). Prints µs per command (mean over the rounds, after a
 * warm-up). Uses only the decider's, handleCommand's and the projection's interfaces, so the same
 * script measures any version of the ledger.
 */
import { randomUUID } from 'node:crypto';
import { MemoryReadStore } from '../adapters/memory/read-store.js';
import { SqliteEventStore } from '../adapters/sqlite/event-store.js';
import { handleCommand } from '../domain/decider/handle.js';
import { ledgerDecider, type LedgerCommand } from '../domain/ledger/decide.js';
import type { LedgerEvent, LedgerState } from '../domain/ledger/ledger.js';
import { RATE_CARDS } from '../domain/ledger/rate-card.js';
import type { RecordedEvent } from '../domain/ports/event-store.js';
import { balancesProjection } from '../projections/balances/projection.js';

const withStore = process.argv.includes('--store');
/** Most rounds through the store (each costs an append). */
const STORE_ROUNDS = 500;
const roundsArg = process.argv.indexOf('--rounds');
const ROUNDS = roundsArg > 0 ? Number(process.argv[roundsArg + 1]) : 2_000;
const NOW = '2026-01-01T00:00:00.000Z';
const metadata = { now: NOW, actor: { id: 'usr_bench', name: 'Bench' } };
const card = RATE_CARDS[1]!;
const HELD = [0, 1_000, 10_000];

const admit = (jobId: string): LedgerCommand => ({
  type: 'AdmitJob',
  data: { jobId, card, units: 10, minVehicles: 1, maxVehicles: 2, budgetMs: 1_000, maxQueuedJobs: 1_000_000 },
  metadata,
});
const startNext = (concurrency: number): LedgerCommand => ({ type: 'StartNextJob', data: { concurrency }, metadata });
const settle = (jobId: string): LedgerCommand => ({
  type: 'SettleJob',
  data: { jobId, outcome: 'succeeded', rateCardVersion: 1, vehicles: 1, computeMs: 500, units: 10, budgetMs: 1_000 },
  metadata,
});

/** Runs `command` as handleCommand does on a cached state: decide, then evolve by its events. */
function run(state: LedgerState, command: LedgerCommand, out: LedgerEvent[]): LedgerState {
  const events = ledgerDecider.decide(command, state);
  for (const e of events) {
    state = ledgerDecider.evolve(state, e);
    out.push(e);
  }
  return state;
}

let position = 0;
const recorded = (e: LedgerEvent): RecordedEvent => ({
  id: String(position),
  type: e.type,
  data: e.data,
  metadata: {},
  stream: 'ledger-org_bench',
  revision: position,
  position: ++position,
  recordedAt: NOW,
});

// A first, unprinted pass on a small ledger warms the JIT up, so the first figures are not its cost.
for (const [held, printed] of [[100, false], ...HELD.map((h) => [h, true] as const)] as const) {
  const reads = new MemoryReadStore();
  let state = ledgerDecider.initialState();
  const setup: LedgerEvent[] = [];
  state = run(state, { type: 'GrantSubscriptionCredits', data: { amount: 1e12, expiresAt: null }, metadata }, setup);
  // One job holds the one slot and never ends; `held` more wait queued behind it.
  state = run(state, admit('job_slot'), setup);
  state = run(state, startNext(1), setup);
  for (let i = 0; i < held; i++) state = run(state, admit(`job_held${i}`), setup);
  for (const e of setup) await balancesProjection.apply(recorded(e), reads);

  // A measured round: AdmitJob of a new job (it waits behind the held ones), StartNextJob (the
  // one slot is taken: decides nothing), SettleJob of the new job (releases a waiting job's hold).
  const measure = async (rounds: number, tag: string): Promise<{ decider: number; projection: number }> => {
    let deciderNs = 0n;
    let projectionNs = 0n;
    for (let r = 0; r < rounds; r++) {
      const events: LedgerEvent[] = [];
      const jobId = `job_${tag}${r}`;
      const t0 = process.hrtime.bigint();
      state = run(state, admit(jobId), events);
      state = run(state, startNext(1), events);
      state = run(state, settle(jobId), events);
      const t1 = process.hrtime.bigint();
      for (const e of events) await balancesProjection.apply(recorded(e), reads);
      const t2 = process.hrtime.bigint();
      deciderNs += t1 - t0;
      projectionNs += t2 - t1;
    }
    return { decider: Number(deciderNs) / rounds / 3 / 1000, projection: Number(projectionNs) / rounds / 3 / 1000 };
  };
  await measure(Math.min(200, ROUNDS), 'warm');
  const { decider, projection } = await measure(ROUNDS, 'run');
  const handled = withStore ? await measureStore(setup, Math.min(STORE_ROUNDS, ROUNDS)) : undefined;
  if (printed)
    console.log(
      `held ${String(held).padStart(6)}: decide+evolve ${decider.toFixed(2).padStart(9)} µs/command, balances projection ${projection.toFixed(2).padStart(9)} µs/command` +
        (handled === undefined ? '' : `, handleCommand (SQLite) ${handled.toFixed(2).padStart(9)} µs/command`),
    );
}

/**
 * The same rounds through handleCommand on an in-memory SQLite event store holding `setup`
 * (state cached after the first command, appends, snapshots as the decider's policy says): µs per
 * command, after a warm-up.
 */
async function measureStore(setup: LedgerEvent[], rounds: number): Promise<number> {
  const store = new SqliteEventStore(':memory:', { bulkLoad: true });
  const stream = 'ledger-org_bench';
  for (let i = 0; i < setup.length; i += 1_000) {
    const chunk = setup.slice(i, i + 1_000).map((e) => ({ id: e.id ?? randomUUID(), type: e.type, data: e.data }));
    await store.append(stream, chunk, 'any');
  }
  const round = async (tag: string, r: number): Promise<void> => {
    const jobId = `job_${tag}${r}`;
    for (const command of [admit(jobId), startNext(1), settle(jobId)])
      await handleCommand(store, stream, ledgerDecider, command);
  };
  for (let r = 0; r < Math.min(50, rounds); r++) await round('storewarm', r);
  const t0 = process.hrtime.bigint();
  for (let r = 0; r < rounds; r++) await round('store', r);
  const ns = process.hrtime.bigint() - t0;
  await store.close();
  return Number(ns) / rounds / 3 / 1000;
}
