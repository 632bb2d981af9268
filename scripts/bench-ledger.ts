/**
 * `node --import tsx scripts/bench-ledger.ts [--rounds N]`: the ledger's cost per command as the
 * number of held jobs grows. For 0, 1,000 and 10,000 jobs held (admitted, queued, never started:
 * one compute slot is taken by a job that never ends), it times rounds of AdmitJob → StartNextJob
 * → SettleJob on one organization's ledger: the decider's decide + evolve (what handleCommand does
 * on a cached state) and the balances projection applying the same events to an in-memory read
 * store. Prints µs per command (mean over the rounds, after a warm-up). Uses only the decider's
 * and the projection's interfaces, so the same script measures any version of the ledger.
 */
import { MemoryReadStore } from '../adapters/memory/read-store.js';
import { ledgerDecider, type LedgerCommand } from '../domain/ledger/decide.js';
import type { LedgerEvent, LedgerState } from '../domain/ledger/ledger.js';
import { RATE_CARDS } from '../domain/ledger/rate-card.js';
import type { RecordedEvent } from '../domain/ports/event-store.js';
import { balancesProjection } from '../projections/balances/projection.js';

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

  // The measured rounds: a new job is admitted, the slot-holder's slot goes to... nobody (the
  // queue's head is older), so the round settles the new job from the queue: AdmitJob, StartNextJob
  // (no slot free: decides nothing), SettleJob (releases a queued job's hold).
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
  if (printed)
    console.log(
      `held ${String(held).padStart(6)}: decide+evolve ${decider.toFixed(2).padStart(9)} µs/command, balances projection ${projection.toFixed(2).padStart(9)} µs/command`,
    );
}
