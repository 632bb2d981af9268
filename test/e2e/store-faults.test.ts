/**
 * The embedded service over an event store that fails (DESIGN §2: every live-log follower reads
 * through a resuming subscription and retries its store steps). The service runs on the SQLite
 * store wrapped in test/helpers/faulty-event-store.ts: every subscription is dropped every
 * DROP_EVERY events, and the whole store fails (reads, appends before or after storing, open
 * subscriptions) for OUTAGE_MS at OUTAGES points while jobs are submitted through the API, which
 * the client retries with the same Idempotency-Key on 503 / 409 (spec Retry rules); two
 * admissions are cut off right after storing JobQueued / JobAdmitted (a lost answer), a solver's
 * JobSucceeded right before it is stored, and more outages come while the jobs run.
 *
 * Afterwards: every queued job ended once and every admission was settled (charged or released)
 * once, the billing audit finds no difference, the read models equal a rebuild from zero over
 * the same log, the API never answered 500 (an unreachable store is 503 with Retry-After), and
 * no promise rejection went unhandled.
 */
import t from 'tap';
import { readLog } from '../../domain/ports/log-pages.js';
import { FaultyEventStore } from '../helpers/faulty-event-store.js';
import { inProcessService, orgWithKey } from '../helpers/in-process-service.js';
import { jobBatch, type Submitted } from '../helpers/job-batch.js';
import {
  awaitJob,
  billingDifferences,
  jobProblems,
  postJobUntilAccepted,
  readModelsVersusRebuild,
  tallyJobs,
  type Answer,
} from '../helpers/store-fault-checks.js';

t.setTimeout(400_000);

const JOBS = 24;
const DROP_EVERY = 7;
/** Jobs posted before each outage begins. */
const OUTAGES = [3, 9, 15, 20];
const OUTAGE_MS = 1500;
/** Compute budget of each job, s (keeps the run short on a shared machine). */
const TIME_LIMIT_SECONDS = 1;
/**
 * Jobs whose admission is cut off half way: the append of the event is stored, then the store
 * fails before answering. JobQueued: the job is queued, and the retry gets it back (the claim is
 * completed). JobAdmitted: credits are held for a job never queued; the retry makes a new job,
 * and the repair tick releases the hold.
 */
const CUT_OFF: Record<number, { type: string; when: 'before' | 'after' }> = {
  6: { type: 'JobQueued', when: 'after' },
  12: { type: 'JobAdmitted', when: 'after' },
  // A solver's outcome, not stored: the solver tries again.
  17: { type: 'JobSucceeded', when: 'before' },
};
/** Outages while the jobs run, one every RUNNING_OUTAGE_EVERY_MS. */
const RUNNING_OUTAGES = 3;
const RUNNING_OUTAGE_EVERY_MS = 2500;
/** Longest wait for the repair tick to release holds of admissions cut off half way, ms (30 s orphan age + ticks). */
const SETTLE_WAIT_MS = 120_000;
// The cut-off JobAdmitted's hold is released by the repair tick: 30 s after it first sees it.

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown): void => {
  unhandled.push(reason);
};
process.on('unhandledRejection', onUnhandled);
t.teardown(() => {
  process.off('unhandledRejection', onUnhandled);
});

/** A repeatable choice of "before" or "after" for failed appends. */
function seeded(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

let faulty: FaultyEventStore | undefined;
const svc = inProcessService(t, 'store-faults', {
  decorateStore: (store) => (faulty = new FaultyEventStore(store, seeded(7))),
  solverConcurrency: 2,
  // The repair tick runs every 15 s (a quarter of the queue timeout, at most 15 s).
  queueTimeoutMs: 60_000,
  // A claim left pending by a request the outage cut off is taken over after 1 s.
  idempotency: { pendingStaleAfterMs: 1000, pendingWaitMs: 2000 },
});

t.test(
  `${JOBS} jobs while subscriptions drop every ${DROP_EVERY} events and the store fails ${OUTAGES.length + RUNNING_OUTAGES + Object.keys(CUT_OFF).length} times for ${OUTAGE_MS} ms`,
  async (t) => {
    const { service } = svc;
    const store = faulty!;
    const org = await orgWithKey(service, { limits: { concurrency: 2, maxQueuedJobs: 100 } });
    store.dropSubscriptionsEvery(DROP_EVERY);
    const started = Date.now();

    const answers: Answer[] = [];
    const duringOutage: Answer[] = [];
    const submitted: Submitted[] = [];
    for (const [i, job] of jobBatch(JOBS, TIME_LIMIT_SECONDS).entries()) {
      if (OUTAGES.includes(i)) {
        store.failFor(OUTAGE_MS);
        // Reads while the store is down: answered from the read models, or 503 — never 500.
        for (const path of ['/v1/balance', ...(submitted[0] ? [`/v1/jobs/${submitted[0].id}`] : [])]) {
          const res = await fetch(`${service.url}${path}`, { headers: { authorization: `Bearer ${org.key}` } });
          const body = (await res.json()) as { error?: { code?: string } };
          duringOutage.push({
            status: res.status,
            ...(body.error?.code ? { code: body.error.code } : {}),
            retryAfter: res.headers.get('retry-after'),
          });
        }
      }
      const cut = CUT_OFF[i];
      if (cut) store.cutOffNextAppendOf(cut.type, OUTAGE_MS, cut.when);
      const id = await postJobUntilAccepted(service.url, org.key, job.body, `store-faults-${i}`, answers);
      submitted.push({ id, example: job.example, body: job.body, api: service.url, key: org.key });
    }
    const submitMs = Date.now() - started;
    t.equal(new Set(submitted.map((s) => s.id)).size, JOBS, `${JOBS} distinct jobs accepted in ${submitMs} ms`);

    // More outages while the jobs run: the solver, the scheduler and the projections are writing.
    let running = 0;
    const outages = setInterval(() => {
      if (running++ < RUNNING_OUTAGES) store.failFor(OUTAGE_MS);
    }, RUNNING_OUTAGE_EVERY_MS);
    const ended = new Map<string, { status: string }>();
    try {
      for (const s of submitted) ended.set(s.id, await awaitJob(service.url, org.key, s.id, answers));
    } finally {
      clearInterval(outages);
    }
    for (const s of submitted) {
      const job = ended.get(s.id)!;
      if (!(job.status === 'succeeded' || job.status === 'failed')) t.fail(`${s.id} ended as ${job.status}`);
    }
    const failures = [...ended.values()]
      .filter((j) => j.status === 'failed')
      .map((j) => (j as { error?: { code?: string } }).error?.code);
    t.pass(
      `every accepted job ended (${[...ended.values()].filter((j) => j.status === 'succeeded').length} succeeded, failed: ${JSON.stringify(failures)}), with ${Math.min(running, RUNNING_OUTAGES)} more outages meanwhile`,
    );

    // Admissions the outage cut off half way hold credits until the repair tick releases them: wait
    // until the log shows every admitted job settled and every queued job ended.
    const deadline = Date.now() + SETTLE_WAIT_MS;
    let problems: string[] = [];
    for (;;) {
      problems = jobProblems(tallyJobs(await readLog(store.inner)), true);
      if (problems.length === 0 || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    const counts = store.counts;
    store.heal();
    const events = await readLog(store.inner);
    const jobs = tallyJobs(events);
    t.same(
      problems,
      [],
      `each of the ${jobs.size} jobs in the log: queued at most once and then ended once, admitted at most once and then settled once`,
    );
    for (const s of submitted)
      if (jobs.get(s.id)?.ends !== 1 || jobs.get(s.id)?.settled !== 1)
        t.fail(`${s.id}: ${JSON.stringify(jobs.get(s.id))}`);
    const cutOff = [...jobs.values()].filter((j) => j.admitted === 1 && j.queued === 0).length;
    t.ok(cutOff >= 1, `${cutOff} admission(s) cut off after JobAdmitted: the hold was released, once`);
    t.equal(jobs.size, JOBS + cutOff, 'no other job than the accepted ones and the cut-off admissions');

    t.same(await billingDifferences(events), [], 'the billing audit (replay-billing) finds 0 differences');

    const head = await store.inner.headPosition();
    t.equal(
      await service.services.projections.waitFor(head, 30_000),
      true,
      'the read models reach the head of the log',
    );
    const rebuilt = await readModelsVersusRebuild(store.inner, service.services.reads);
    t.same(
      rebuilt.differences,
      [],
      `the read models equal a rebuild from zero (${rebuilt.documents} documents in ${rebuilt.collections} collections)`,
    );

    const all = [...answers, ...duringOutage];
    t.same(
      all.filter((a) => a.status >= 500 && a.status !== 503),
      [],
      `no 5xx but 503 among ${all.length} answers`,
    );
    const unavailable = all.filter((a) => a.status === 503);
    t.ok(unavailable.length > 0, `the outages were met by requests (${unavailable.length} × 503)`);
    t.same(
      unavailable.filter((a) => a.code !== 'api_disabled' || a.retryAfter === null),
      [],
      'every 503 is api_disabled with Retry-After',
    );
    t.ok(counts.subscriptionsDropped > 0 && counts.subscriptionsFailed > 0, 'subscriptions were dropped and failed');
    t.ok(counts.appendsFailedBefore > 0 && counts.appendsLostAnswer > 0, 'appends failed before and after storing');
    t.same(unhandled, [], 'no unhandled promise rejection');
    const byStatus = all.reduce<Record<string, number>>((m, a) => ({ ...m, [a.status]: (m[a.status] ?? 0) + 1 }), {});
    t.comment(
      `faults injected: ${JSON.stringify(counts)}; answers by status ${JSON.stringify(byStatus)}; ${cutOff} admissions cut off and released; ${events.length} events; ${Math.round((Date.now() - started) / 1000)} s`,
    );
  },
);
