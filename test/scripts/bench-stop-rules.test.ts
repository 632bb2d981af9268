/** Stop rules replayed over recorded searches (scripts/bench-stop-rules.ts). */
import t from 'tap';
import type { TracedJob } from '../../scripts/bench-auto.js';
import { replay, ruleFigures, RULE_IN_USE, type StopRule } from '../../scripts/bench-stop-rules.js';
import type { Score } from '../../solver/search/score.js';

const score = (placed: number, volume: number, vehicles = 1): Score => ({
  volumeByPriority: [volume],
  placed,
  vehicles,
  utilization: volume / 100,
  imbalance: 0,
});

/** 20 units, a 10 s budget run to 9.9 s: 10 units placed at 0.1 s, 12 at 5 s; work 10 per ms. */
const job = (name = 'late'): TracedJob => ({
  name,
  units: 20,
  budgetMs: 10_000,
  computeMs: 9_900,
  stopReason: 'time_limit',
  trace: {
    improvements: [
      { ms: 100, work: 1_000, score: score(10, 50), worker: 0 },
      // Only the balance is better: not an improvement of the board.
      { ms: 3_000, work: 30_000, score: { ...score(10, 50), imbalance: -1 }, worker: 1 },
      { ms: 5_000, work: 50_000, score: score(12, 60), worker: 1 },
    ],
    firstBeamMs: [50, 60],
    firstBeamWork: [500, 600],
  },
});

/** The rule before the windows depended on units left over. */
const FLAT: StopRule = { minMs: 1000, budgetShare: 0.2, share: 0.3, shortFactor: 1 };

t.test('a rule stops its window after the last better plan, with that plan', async (t) => {
  const stop = replay(job(), FLAT);
  t.equal(stop.ms, 2_100, '20 % of the budget after 0.1 s');
  t.equal(stop.score?.placed, 10);
});

t.test('the rule in use: 18 % of the budget while units are left (solver/search/stagnation.ts)', async (t) => {
  t.equal(replay(job(), RULE_IN_USE).ms, 1_900);
});

t.test('a longer window while units are left runs to the end and keeps the late plan', async (t) => {
  const patient: StopRule = { ...FLAT, shortFactor: 3 };
  const stop = replay(job(), patient);
  t.equal(stop.ms, 9_900);
  t.equal(stop.score?.placed, 12);
});

t.test('no stop before every worker has completed its first beam round', async (t) => {
  const j = job();
  j.trace.firstBeamMs = [50, 4_000];
  t.equal(replay(j, FLAT).ms, 4_000);
  j.trace.firstBeamMs = [50, null];
  t.equal(replay(j, FLAT).ms, 9_900, 'a worker that never completed one: the search runs to its end');
});

t.test('figures over jobs: compute share, worse jobs and fill difference', async (t) => {
  const f = ruleFigures([job('a'), job('b')], FLAT);
  t.equal(f.computeShare, (100 * 2 * 2_100) / (2 * 9_900));
  t.same(f.worse, ['a', 'b']);
  t.equal(Math.round(f.fillDiff * 1e9) / 1e9, -10, 'fill 50 % at the stop against 60 % at the end');
});
