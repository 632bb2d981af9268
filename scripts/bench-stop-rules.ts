/**
 * `npm run bench -- stop-rules --trace FILE [--json]`: replays stop rules of the automatic budget
 * (solver/search/stagnation.ts) over the searches that `npm run bench -- auto --trace FILE`
 * recorded, each run to the end of its budget, without solving again. For every rule of a grid
 * (the least window in ms and as a share of the budget, the share of the time and of the work
 * since the start, and a factor on the windows while the best plan leaves units unplaced) it
 * gives Σ compute with the rule as a share of Σ compute to the end, the jobs whose plan at the
 * stop places fewer units or uses more vehicles than the plan at the end, and the mean fill
 * difference in points (the objective's fill, placed volume / volume of the loaded vehicles);
 * then, per number of such jobs, the rule that computes least.
 *
 * A replay is an estimate: the plan at the stop is the best the full search had found by then,
 * and the work done by a time is interpolated between the trace's points. Checked against real
 * runs of the rule in use (`npm run bench -- auto`): the same order of compute and jobs; the
 * figures of a real run move by about 2 jobs and 3 % of compute between runs.
 */
import { readFileSync } from 'node:fs';
import type { Score } from '../solver/search/score.js';
import {
  betterForCustomer,
  STAGNATION_BUDGET_SHARE,
  STAGNATION_LEFT_OVER_FACTOR,
  STAGNATION_MIN_MS,
  STAGNATION_SHARE,
} from '../solver/search/stagnation.js';
import type { TracedJob } from './bench-auto.js';

/** Options of the `stop-rules` bench (strings as commander gives them). */
export interface StopRulesOptions {
  trace: string;
  json?: boolean;
}

/** A stop rule: stagnation.ts's, with a factor on both windows while units are left over. */
export interface StopRule {
  /** Least window without a better plan, ms. */
  minMs: number;
  /** … and at least this share of the budget. */
  budgetShare: number;
  /** Share of the time and of the work since the start that must pass without a better plan. */
  share: number;
  /** Factor on the budget's share and on `share` while the best plan leaves units unplaced (1: none). */
  shortFactor: number;
}

/** What a rule gives over all traced jobs. */
export interface RuleFigures {
  rule: StopRule;
  /** Σ compute with the rule / Σ compute to the end, %. */
  computeShare: number;
  /** Jobs whose plan at the stop places fewer units or uses more vehicles than at the end. */
  worse: string[];
  /** Mean over jobs of the fill at the stop minus the fill at the end, points. */
  fillDiff: number;
}

/** The rule in use (stagnation.ts). */
export const RULE_IN_USE: StopRule = {
  minMs: STAGNATION_MIN_MS,
  budgetShare: STAGNATION_BUDGET_SHARE,
  share: STAGNATION_SHARE,
  shortFactor: STAGNATION_LEFT_OVER_FACTOR,
};

/** The board's best over time: each improvement that beats the best so far (balance aside, as offerBest). */
function bestOverTime(job: TracedJob): { ms: number; work: number; score: Score }[] {
  const out: { ms: number; work: number; score: Score }[] = [];
  for (const i of [...job.trace.improvements].sort((a, b) => a.ms - b.ms)) {
    const last = out[out.length - 1];
    if (!last || betterForCustomer(i.score, last.score)) out.push(i);
  }
  return out;
}

/** Work done by `ms` (block placements), interpolated between the trace's points; a straight line past the last. */
function workCurve(job: TracedJob): (ms: number) => number {
  const points: [number, number][] = [[0, 0]];
  for (const i of job.trace.improvements) points.push([i.ms, i.work]);
  job.trace.firstBeamMs.forEach((ms, w) => {
    const work = job.trace.firstBeamWork[w];
    if (ms !== null && work !== null && work !== undefined) points.push([ms, work]);
  });
  points.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  // Work only grows: a point below an earlier one (another worker's count) is lifted to it.
  for (let k = 1; k < points.length; k++) points[k]![1] = Math.max(points[k]![1], points[k - 1]![1]);
  const [lastMs, lastWork] = points[points.length - 1]!;
  const rate = lastMs > 0 ? lastWork / lastMs : 0;
  return (ms) => {
    if (ms >= lastMs) return lastWork + (ms - lastMs) * rate;
    let k = 1;
    while (points[k]![0] < ms) k++;
    const [m0, w0] = points[k - 1]!,
      [m1, w1] = points[k]!;
    return m1 > m0 ? w0 + ((w1 - w0) * (ms - m0)) / (m1 - m0) : w1;
  };
}

/**
 * When `rule` stops `job` (ms) and with which best plan (the end of its run when it never does),
 * and the best plan at the end.
 */
export function replay(
  job: TracedJob,
  rule: StopRule,
): { ms: number; score: Score | undefined; atEnd: Score | undefined } {
  const best = bestOverTime(job);
  const atEnd = best[best.length - 1]?.score;
  const end = job.computeMs;
  const work = workCurve(job);
  const beams = job.trace.firstBeamMs;
  // No stop before every worker has completed its first beam round.
  const beamsDone = beams.length > 0 && beams.every((ms) => ms !== null) ? Math.max(...beams) : Infinity;
  for (let k = 0; k < best.length; k++) {
    const { ms: lastMs, work: lastWork, score } = best[k]!;
    const next = best[k + 1]?.ms ?? Infinity;
    const f = score.placed < job.units ? rule.shortFactor : 1;
    const share = Math.min(0.95, rule.share * f);
    const minMs = Math.max(rule.minMs, rule.budgetShare * f * job.budgetMs);
    // The time condition: now − last ≥ max(minMs, share · now).
    let t = Math.max(beamsDone, lastMs + minMs, lastMs / (1 - share));
    // The work condition: work(now) − lastWork ≥ share · work(now), found by stepping 10 ms.
    while (t < Math.min(next, end) && work(t) * (1 - share) < lastWork) t += 10;
    if (t < next && t < end) return { ms: t, score, atEnd };
  }
  return { ms: end, score: atEnd, atEnd };
}

/** The figures of `rule` over `jobs`. */
export function ruleFigures(jobs: readonly TracedJob[], rule: StopRule): RuleFigures {
  let full = 0,
    stopped = 0,
    fill = 0;
  const worse: string[] = [];
  for (const job of jobs) {
    const stop = replay(job, rule);
    const atEnd = stop.atEnd;
    full += job.computeMs;
    stopped += Math.min(stop.ms, job.computeMs);
    if (!atEnd || !stop.score) continue;
    if (stop.score.placed < atEnd.placed || stop.score.vehicles > atEnd.vehicles) worse.push(job.name);
    fill += 100 * (stop.score.utilization - atEnd.utilization);
  }
  return {
    rule,
    computeShare: full > 0 ? (100 * stopped) / full : 0,
    worse,
    fillDiff: jobs.length > 0 ? fill / jobs.length : 0,
  };
}

/** The grid of rules replayed, the rule in use first. */
export function ruleGrid(): StopRule[] {
  const rules: StopRule[] = [RULE_IN_USE];
  for (const minMs of [1000, 2000])
    for (const budgetShare of [0.1, 0.2, 0.3])
      for (const share of [0.3, 0.4, 0.5, 0.6])
        for (const shortFactor of [1, 1.5, 2, 3]) rules.push({ minMs, budgetShare, share, shortFactor });
  return rules;
}

const describe = (r: StopRule): string =>
  `min ${r.minMs} ms, ${r.budgetShare * 100} % of budget, ${r.share * 100} % of time and work, ×${r.shortFactor} while units are left`;

const row = (f: RuleFigures): string =>
  `${f.computeShare.toFixed(1).padStart(5)} %  ${String(f.worse.length).padStart(3)} worse  fill ${f.fillDiff.toFixed(3).padStart(7)}  ${describe(f.rule)}`;

/** Reads a `--trace` file of `npm run bench -- auto`: one TracedJob per line. */
export function readTrace(file: string): TracedJob[] {
  const jobs = readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as TracedJob);
  for (const j of jobs)
    if (typeof j.units !== 'number')
      throw new RangeError(`${file}: job ${j.name} has no units (a trace written before units were recorded)`);
  return jobs;
}

/** Runs the bench; resolves with every rule's figures (printed). */
export function benchStopRules(o: StopRulesOptions): RuleFigures[] {
  const jobs = readTrace(o.trace);
  const figures = ruleGrid().map((rule) => ruleFigures(jobs, rule));
  // Per number of worse jobs, the rule that computes least (the rule in use aside).
  const frontier = new Map<number, RuleFigures>();
  for (const f of figures.slice(1)) {
    const seen = frontier.get(f.worse.length);
    if (!seen || f.computeShare < seen.computeShare) frontier.set(f.worse.length, f);
  }
  const best = [...frontier.values()].sort((a, b) => a.worse.length - b.worse.length);
  if (o.json) {
    console.log(JSON.stringify({ jobs: jobs.length, inUse: figures[0], frontier: best }));
    return figures;
  }
  console.log(`stop rules replayed over ${jobs.length} traced jobs (${o.trace})`);
  console.log(`in use: ${row(figures[0]!)}`);
  console.log(`   ${figures[0]!.worse.join(' ')}`);
  console.log('least compute per number of worse jobs:');
  for (const f of best) console.log(`  ${row(f)}`);
  return figures;
}
