/**
 * Benchmarks the solver. `br`: container loading on BR / OR-Library files, full support, every
 * plan verified (scripts/bench-br.ts).
 *
 *   npm run bench -- br FILE… [--instances 1-100] [--budget ms] [--threads n] [--work n] [--json] [--stacking off|defaults]
 *
 * `mpv`: Martello–Pisinger–Vigo bins against the volume bound (scripts/bench-mpv.ts).
 *
 *   npm run bench -- mpv [DIR] [--classes 1-8] [--sizes 50,100] [--instances 1-10] [--budget ms]
 *
 * `large`: 2,000 units of 50 types into at most 20 trailers (scripts/bench-large.ts).
 *
 *   npm run bench -- large [--units 2000] [--types 50] [--vehicles 20] [--threads n]
 *
 * `examples`: every examples/*.json resolved like the API does (default limits, presets, seed 1),
 * solved and verified; prints per example the units placed/requested, vehicles used, mean
 * volume fill %, placed weight / payload of the used vehicles, compute ms and the volume lower
 * bound on vehicles (ceil(cargo volume / largest vehicle volume)).
 *
 *   npm run bench -- examples [--budget ms] [--threads n]
 *
 * `alonso`: trucks with axle limits (scripts/bench-alonso.ts).
 *
 * `nodes`: jobs per minute of the multi-process profile with 1, 2, … solver-node processes
 * (scripts/bench-nodes.ts; needs nats-server).
 *
 *   npm run bench -- nodes [--nodes 1,2] [--jobs 50] [--threads 1]
 *
 * `fairness`: a tiny job of organization B while A and C run long jobs (scripts/bench-fairness.ts).
 *
 *   npm run bench -- fairness [--budget 90000] [--concurrency n] [--threads n] [--pool-threads n]
 *
 * `stop-rules`: stop rules of the automatic budget replayed over an `auto --trace` file
 * (scripts/bench-stop-rules.ts).
 *
 *   npm run bench -- stop-rules --trace FILE [--json]
 *
 * `cores`: what 1 → 2 threads give on this machine, kernels of compute, cache, memory and
 * allocation alone and in two threads at once (scripts/bench-cores.ts).
 *
 *   npm run bench -- cores [--ms 3000] [--rounds 3] [--kernels compute,cache,memory,allocation]
 *
 * `idempotency`: concurrent retries with one Idempotency-Key, jobs made per round
 * (scripts/bench-idempotency.ts).
 *
 *   npm run bench -- idempotency [--rounds 5] [--concurrency 20] [--root DIR]
 *
 * `event-size`: the events a large job's request and result make against the event store's
 * size limit, before (one plain event) and now (compressed, split), with ratio and times
 * (scripts/bench-event-size.ts).
 *
 *   npm run bench -- event-size [--compare]
 *
 * `webapp`: bytes a cold load of /app/playground and of the 3D viewer transfers, time to a usable
 * playground and to the viewer's first frame, axe-core violations of every page, in headless
 * Chromium against a service process (scripts/bench-webapp.ts).
 *
 *   npm run bench -- webapp [--root DIR] [--runs 5] [--out FILE.json]
 *
 * `api`: the HTTP API under load on loopback (autocannon) beside a bare Express route, the compiled
 * service (dist/) with `--jobs` succeeded jobs seeded; with `--held`, each case per number of held
 * (queued) jobs of the organization, CPU ms per request, then a restart with the last level held
 * (time to listening; every held job failed server_restarted and settled exactly once;
 * replay-billing); `--restart-queued N` times only a start-up with N queued jobs in the log
 * (scripts/bench-api.ts).
 *
 *   npm run bench -- api [--jobs 2000] [--seconds 10] [--connections 50] [--only job,list] [--json] [--keep]
 *   npm run bench -- api --held 0,100,1000,10000 [--jobs 100000] [--seconds 10] [--json]
 *   npm run bench -- api --restart-queued 10000 [--json]
 *
 * `threads-loader`: the search's placements per second with the compiled JavaScript of `npm start`
 * against tsx, same work in deterministic mode (scripts/bench-threads-loader.ts).
 *
 *   npm run bench -- threads-loader [--files BR7,BR15] [--instances 1-5] [--work 20000] [--threads 1] [--rounds 3]
 *
 * `verify`: plan editing, the time to verify a large job's plan in process (checkLayout) and
 * through POST /v1/plans/verify (scripts/bench-verify.ts).
 *
 *   npm run bench -- verify [--units 2000] [--types 50] [--sizes 20-120] [--runs 20] [--work 20000]
 *
 * `auto`: the automatic time limit run to its end (A) against the stop on stagnation (B): compute
 * ms, units placed, vehicles and fill of both on the examples and on realistic generated jobs
 * (scripts/bench-auto.ts, scripts/realistic-jobs.ts).
 *
 *   npm run bench -- auto [--jobs 100] [--seed 1] [--examples] [--only-examples] [--json] [--threads 2] [--trace FILE] [--stacking defaults|off]
 */
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { Command } from 'commander';
import { checkPackRequest, SCRIPT_CHECK_CONTEXT } from '../api/http/pack-request/check.js';
import { Solver } from '../solver/solve.js';
import { verifyPlan } from '../solver/verify/verify.js';
import { benchAlonso } from './bench-alonso.js';
import { benchNodes } from './bench-nodes.js';
import { benchFairness } from './bench-fairness.js';
import { mean } from './bench-br.js';

const EXAMPLES_DIR = new URL('../examples/', import.meta.url).pathname;

async function benchExamples(o: { budget?: string; threads?: string }): Promise<void> {
  const solver = new Solver(o.threads ? { threads: Number(o.threads) } : {});
  const files = readdirSync(EXAMPLES_DIR)
    .filter((f) => f.endsWith('.json'))
    .sort();
  console.log(`examples, budget ${o.budget ?? 'model'} ms, ${solver.threads} threads`);
  console.log('example                          placed/req   veh  lb  fill%   weight/payload kg     ms');
  try {
    for (const f of files) {
      const body: unknown = JSON.parse(readFileSync(join(EXAMPLES_DIR, f), 'utf8'));
      const checked = checkPackRequest(body, SCRIPT_CHECK_CONTEXT);
      if (!checked.ok) throw new Error(`${f}: ${checked.message} ${JSON.stringify(checked.details.slice(0, 3))}`);
      const model = o.budget ? { ...checked.model, budgetMs: Number(o.budget) } : checked.model;
      const out = await solver.solve(model);
      if (out.status !== 'solved') throw new Error(`${f}: ${out.status} ${'error' in out ? out.error : ''}`);
      const violations = verifyPlan(model, out.plan);
      if (violations.length > 0)
        throw new Error(`${f}: plan fails verification ${JSON.stringify(violations.slice(0, 3))}`);
      const vs = out.plan.vehicles;
      const requested = model.items.reduce((s, it) => s + it.quantity, 0);
      const placed = vs.reduce((s, v) => s + v.items_placed, 0);
      const cargo = model.items.reduce((s, it) => s + it.quantity * it.length * it.width * it.height, 0);
      const biggest = Math.max(...model.vehicles.map((v) => v.length * v.width * v.height));
      const weight = vs.reduce((s, v) => s + v.total_weight, 0),
        payload = vs.reduce((s, v) => s + v.max_weight, 0);
      console.log(
        [
          basename(f, '.json').padEnd(32),
          `${placed}/${requested}`.padStart(10),
          String(vs.length).padStart(5),
          String(Math.ceil(cargo / biggest - 1e-9)).padStart(3),
          (100 * mean(vs.map((v) => v.volume_utilization))).toFixed(2).padStart(6),
          `${weight.toFixed(0)}/${payload.toFixed(0)}`.padStart(19),
          String(out.computeMs).padStart(6),
        ].join(' '),
      );
    }
  } finally {
    await solver.close();
  }
}

const program = new Command('bench');
program
  .command('examples')
  .description('the example requests (examples/*.json), resolved like the API, solved and verified')
  .option('--budget <ms>', "budget per example, ms (default: the request's time limit)")
  .option('--threads <n>', 'worker threads (default: available cores)')
  .action(benchExamples);
program
  .command('br')
  .description('container loading on BR / OR-Library files with full support (scripts/bench-br.ts)')
  .argument('<files...>', 'files: paths, or names in ../shared/benchmarks/br (thpack1.txt, BR12.txt, BR3)')
  .option('--instances <range>', 'instance numbers, e.g. 1-20', '1-10')
  .option('--budget <ms>', 'budget per instance, ms', '10000')
  .option('--threads <n>', 'worker threads (default: available cores)')
  .option('--work <n>', 'deterministic mode: work units (block placements) per thread')
  .option('--json', 'one JSON object per instance')
  .option(
    '--loader <compiled|tsx>',
    'the compiled search as the service runs it (default), or the TypeScript sources',
    'compiled',
  )
  .option(
    '--stacking <off|defaults>',
    "the safe stacking rules: the benchmark's own (off, default) or the service's defaults",
    'off',
  )
  .action(async (files: string[], o: import('./bench-br.js').BrBenchOptions) => {
    await (await import('./bench-br.js')).benchBr(files, o);
  });
program
  .command('mpv')
  .description('Martello–Pisinger–Vigo 3D bin packing: bins used against the volume lower bound (scripts/bench-mpv.ts)')
  .argument('[dir]', 'instance directory (default ../shared/benchmarks/mpv3dbpp)')
  .option('--classes <range>', 'classes, e.g. 1-8', '1-8')
  .option('--sizes <list>', 'numbers of boxes, e.g. 50,100,150,200', '50,100')
  .option('--instances <range>', 'instance numbers per class and size, e.g. 1-10', '1-10')
  .option('--budget <ms>', 'budget per instance, ms', '2000')
  .option('--threads <n>', 'worker threads (default: available cores)')
  .option('--json', 'one JSON object per instance')
  .action(async (dir: string | undefined, o: import('./bench-mpv.js').MpvBenchOptions) => {
    await (await import('./bench-mpv.js')).benchMpv(dir, o);
  });
program
  .command('large')
  .description(
    'a large job: time to the first complete plan and the plan at the automatic time limit (scripts/bench-large.ts)',
  )
  .option('--units <n>', 'units', '2000')
  .option('--types <n>', 'box types', '50')
  .option('--vehicles <n>', 'most vehicles', '20')
  .option('--threads <n>', 'worker threads (default: available cores)')
  .action(async (o: import('./bench-large.js').LargeBenchOptions) => {
    await (await import('./bench-large.js')).benchLarge(o);
  });
program
  .command('verify')
  .description(
    "a large job's plan verified in process (checkLayout) and through POST /v1/plans/verify (scripts/bench-verify.ts)",
  )
  .option('--units <n>', 'units', '2000')
  .option('--types <n>', 'box types', '50')
  .option('--sizes <min-max>', 'box sizes, cm (20-50 puts about 1,000 units in one trailer)', '20-120')
  .option('--runs <n>', 'timed runs of each', '20')
  .option('--work <n>', 'deterministic mode: block placements of the solve', '20000')
  .action(async (o: import('./bench-verify.js').VerifyBenchOptions) => {
    await (await import('./bench-verify.js')).benchVerify(o);
  });
program
  .command('alonso')
  .description('Alonso et al. 2019 trucks with axle limits, box level, with and without enforce_axle')
  .option('--instances <range>', 'instance numbers, e.g. 1-10', '1-10')
  .option('--day <n>', 'delivery day of the demand (0, 1 or 2)', '0')
  .option('--budget <ms>', 'budget per run, ms', '3000')
  .option('--threads <n>', 'worker threads (default: available cores)')
  .action(benchAlonso);
program
  .command('nodes')
  .description('jobs per minute of the multi-process profile with 1, 2, … solver-node processes (needs nats-server)')
  .option('--nodes <list>', 'solver-node counts, side by side', '1,2')
  .option('--jobs <n>', 'jobs in the batch', '50')
  .option('--threads <n>', 'worker threads per solver node', '1')
  .action(benchNodes);
program
  .command('fairness')
  .description("a tiny job of organization B while A and C run long jobs: B's wall time and queue_ms")
  .option('--budget <ms>', 'budget of the long jobs, ms', '90000')
  .option('--concurrency <n>', 'SOLVER_CONCURRENCY (default 3)')
  .option('--threads <n>', 'worker threads per job (default: available cores)')
  .option('--pool-threads <n>', 'the Solver alone with a pool of n threads (the measurement behind the choice)')
  .action(benchFairness);
program
  .command('idempotency')
  .description(
    'concurrent retries with one Idempotency-Key against a real service process: jobs made per round (scripts/bench-idempotency.ts)',
  )
  .option('--rounds <n>', 'rounds, each with a fresh organization', '5')
  .option('--concurrency <n>', 'identical requests released together per round', '20')
  .option('--root <dir>', 'run the service from this checkout (e.g. a worktree of an earlier commit)')
  .action(async (o: import('./bench-idempotency.js').IdempotencyOptions) =>
    (await import('./bench-idempotency.js')).benchIdempotency(o),
  );
program
  .command('webapp')
  .description(
    'the web app and the 3D viewer in headless Chromium: bytes per cold load, time to a usable playground and to the first 3D frame, axe-core counts per page (scripts/bench-webapp.ts)',
  )
  .option(
    '--root <dir>',
    'run the service and its front ends from this checkout (e.g. a worktree of an earlier commit)',
  )
  .option('--runs <n>', 'cold loads per page, medians reported', '5')
  .option('--out <file>', 'also write the figures as JSON to this file')
  .action(async (o: import('./bench-webapp.js').WebappBenchOptions) =>
    (await import('./bench-webapp.js')).benchWebapp(o),
  );
program
  .command('event-size')
  .description(
    "events of the largest job's request and result against MAX_APPEND_BYTES: plain before, compressed and split now (scripts/bench-event-size.ts)",
  )
  .option('--compare', 'also gzip and other Brotli qualities on the same JSON')
  .action(async (o: import('./bench-event-size.js').EventSizeBenchOptions) =>
    (await import('./bench-event-size.js')).benchEventSize(o),
  );
program
  .command('api')
  .description(
    'HTTP API load on loopback beside bare Express (compiled service), per number of held jobs, then start-up time, memory and the restart checks (scripts/bench-api.ts)',
  )
  .option('--jobs <n>', 'succeeded jobs seeded first', '2000')
  .option('--seconds <n>', 'seconds per case', '10')
  .option('--connections <n>', 'autocannon connections', '50')
  .option(
    '--only <cases>',
    'comma-separated cases: bare, job, list, balance, estimate, job-computing, pack (default all; with --held: bare, job, list, balance, pack)',
  )
  .option(
    '--held <levels>',
    'held (queued) jobs per round, e.g. 0,100,1000,10000; then a restart with the last level held',
  )
  .option('--restart-queued <n>', 'only the start-up: n queued jobs seeded into the log, time to listening, the checks')
  .option('--json', 'one JSON object per case on stdout, progress on stderr')
  .option('--keep', 'keep the data dir (its path is printed)')
  .action(async (o: import('./bench-api.js').ApiBenchOptions) => (await import('./bench-api.js')).benchApi(o));
program
  .command('threads-loader')
  .description(
    "the search's placements per second, compiled JavaScript (dist/) against tsx, same work (scripts/bench-threads-loader.ts)",
  )
  .option('--files <list>', 'BR files, comma-separated (names as for br)', 'BR7,BR15')
  .option('--instances <range>', 'instance numbers, e.g. 1-5', '1-5')
  .option('--work <n>', 'work units (block placements) per thread', '20000')
  .option('--threads <n>', 'worker threads per solve', '1')
  .option('--rounds <n>', 'rounds, each running both loaders', '3')
  .action(async (o: import('./bench-threads-loader.js').ThreadsLoaderOptions) =>
    (await import('./bench-threads-loader.js')).benchThreadsLoader(o),
  );
program
  .command('cores')
  .description(
    'what 1 → 2 threads give on this machine: compute, cache, memory and allocation kernels alone and in two threads at once (scripts/bench-cores.ts)',
  )
  .option('--ms <n>', 'ms per run', '3000')
  .option('--rounds <n>', 'rounds, alternating which runs first', '3')
  .option('--kernels <list>', 'kernels, comma-separated', 'compute,cache,memory,allocation')
  .action(async (o: import('./bench-cores.js').CoresBenchOptions) => (await import('./bench-cores.js')).benchCores(o));
program
  .command('auto')
  .description(
    'the automatic time limit to its end (A) against the stop on stagnation (B) on realistic jobs, plans verified (scripts/bench-auto.ts)',
  )
  .option('--jobs <n>', 'generated jobs (scripts/realistic-jobs.ts)', '100')
  .option('--seed <n>', 'seed of the generated jobs', '1')
  .option('--examples', 'the examples/*.json first')
  .option('--only-examples', 'only the examples/*.json')
  .option('--trace <file>', "write every A run's search trace, one JSON line per job (to try other stop rules)")
  .option('--json', 'one JSON object per job, then a summary object')
  .option('--threads <n>', 'worker threads per solve', '2')
  .option('--stacking <defaults|off>', 'the safe stacking rules: as the requests resolve (defaults) or off', 'defaults')
  .action(async (o: import('./bench-auto.js').AutoBenchOptions) => {
    await (await import('./bench-auto.js')).benchAuto(o);
  });
program
  .command('stop-rules')
  .description(
    'stop rules of the automatic budget replayed over the searches an `auto --trace` run recorded (scripts/bench-stop-rules.ts)',
  )
  .requiredOption('--trace <file>', 'the trace file of `npm run bench -- auto --trace FILE`')
  .option('--json', 'one JSON object: the rule in use and the least compute per number of worse jobs')
  .action(async (o: import('./bench-stop-rules.js').StopRulesOptions) => {
    (await import('./bench-stop-rules.js')).benchStopRules(o);
  });
try {
  await program.parseAsync(process.argv);
} catch (err) {
  // Bad arguments (an unknown file, a budget that is no number: RangeError) end with one line, not a stack trace.
  if (!(err instanceof RangeError)) throw err;
  console.error(`bench: ${err.message}`);
  process.exitCode = 2;
}
