/**
 * What the store-outage tests (test/e2e/store-faults*.test.ts) do and check: a client that posts
 * a job and retries 503 / 409 with the same Idempotency-Key (spec Retry rules), recording every
 * answer it got; the log's invariants (every queued job ended once, every admitted job settled
 * once); the billing audit's differences (the fold of scripts/replay-billing.ts); and the read
 * models against a rebuild from the same log.
 */
import { MemoryReadStore } from '../../adapters/memory/read-store.js';
import { auditLog } from '../../domain/billing-audit/audit.js';
import type { EventStore, RecordedEvent } from '../../domain/ports/event-store.js';
import type { ReadCollection, ReadDocument, ReadStore } from '../../domain/ports/read-store.js';
import { compareWithReadModels } from '../../projections/audit/compare.js';
import { balancesProjection } from '../../projections/balances/projection.js';
import { jobsProjection } from '../../projections/jobs/projection.js';
import { organizationsProjection } from '../../projections/organizations/projection.js';
import { PROJECTIONS } from '../../projections/all.js';
import { ProjectionRunner } from '../../projections/runner.js';

/** One answer the API gave. */
export interface Answer {
  status: number;
  code?: string;
  retryAfter: string | null;
}

/** The first at most `max` ms of a Retry-After header, at least 50 ms. */
function retryDelay(retryAfter: string | null, max: number): number {
  const s = Number(retryAfter);
  return Math.max(50, Math.min(max, Number.isFinite(s) ? s * 1000 : max));
}

/**
 * Posts `body` to `<base>/v1/pack` with Idempotency-Key `idempotencyKey` until it is accepted
 * (202/200), retrying 503 and 409 after their Retry-After (at most `maxWaitMs` each), as the spec
 * tells clients to. Every answer is pushed on `answers`; throws for any other status, or after
 * `deadlineMs`.
 */
export async function postJobUntilAccepted(
  base: string,
  key: string,
  body: unknown,
  idempotencyKey: string,
  answers: Answer[],
  deadlineMs = 120_000,
  maxWaitMs = 500,
): Promise<string> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const res = await fetch(`${base}/v1/pack`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        'idempotency-key': idempotencyKey,
      },
      body: JSON.stringify(body),
    });
    const parsed = (await res.json().catch(() => ({}))) as { id?: string; error?: { code?: string } };
    answers.push({
      status: res.status,
      ...(parsed.error?.code ? { code: parsed.error.code } : {}),
      retryAfter: res.headers.get('retry-after'),
    });
    if ((res.status === 202 || res.status === 200) && parsed.id) return parsed.id;
    if ((res.status !== 503 && res.status !== 409) || Date.now() > deadline)
      throw new Error(`POST /v1/pack (${idempotencyKey}) answered ${res.status}: ${JSON.stringify(parsed)}`);
    await new Promise((r) => setTimeout(r, retryDelay(res.headers.get('retry-after'), maxWaitMs)));
  }
}

/**
 * Waits with `GET /v1/jobs/{id}?wait=20` until job `id` is final with its charge settled,
 * retrying 503 after its Retry-After; every answer is pushed on `answers`. Resolves with the
 * job; throws for another status, or after `deadlineMs`. With `readsMayLag` (another API process
 * than the one that took the job), a `404 job_not_found` is retried too: while the event store
 * cannot be reached, a process answers from the read models it holds (docs/operations.md, "How the
 * processes agree"), which may not have the new job yet.
 */
export async function awaitJob(
  base: string,
  key: string,
  id: string,
  answers: Answer[],
  deadlineMs = 240_000,
  maxWaitMs = 500,
  readsMayLag = false,
): Promise<{ status: string; cost?: unknown }> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const res = await fetch(`${base}/v1/jobs/${id}?wait=20`, { headers: { authorization: `Bearer ${key}` } });
    const body = (await res.json().catch(() => ({}))) as {
      status?: string;
      cost?: { credits?: unknown };
      finished_at?: unknown;
      error?: { code?: string };
    };
    answers.push({
      status: res.status,
      ...(body.error && res.status >= 400 ? { code: body.error.code } : {}),
      retryAfter: res.headers.get('retry-after'),
    });
    if (
      res.status === 200 &&
      ['succeeded', 'failed', 'canceled'].includes(body.status ?? '') &&
      typeof body.cost?.credits === 'number' &&
      body.finished_at
    ) {
      return body as { status: string };
    }
    const lagging = readsMayLag && res.status === 404 && body.error?.code === 'job_not_found';
    if ((res.status !== 200 && res.status !== 503 && !lagging) || Date.now() > deadline)
      throw new Error(`GET /v1/jobs/${id} answered ${res.status}: ${JSON.stringify(body)}`);
    if (lagging) await new Promise((r) => setTimeout(r, maxWaitMs));
    if (res.status === 503)
      await new Promise((r) => setTimeout(r, retryDelay(res.headers.get('retry-after'), maxWaitMs)));
  }
}

/** Per job of the log: its end events, and its ledger admissions and settlements. */
export interface JobTally {
  queued: number;
  ends: number;
  admitted: number;
  settled: number;
}

/** The jobs of `events` with what the log holds about each. */
export function tallyJobs(events: readonly RecordedEvent[]): Map<string, JobTally> {
  const jobs = new Map<string, JobTally>();
  const of = (jobId: string): JobTally => {
    let tally = jobs.get(jobId);
    if (!tally) jobs.set(jobId, (tally = { queued: 0, ends: 0, admitted: 0, settled: 0 }));
    return tally;
  };
  for (const e of events) {
    const jobId = (e.data as { jobId?: unknown }).jobId;
    if (typeof jobId !== 'string') continue;
    const ledger = e.stream.startsWith('ledger-');
    if (e.stream.startsWith('job-') && e.type === 'JobQueued') of(jobId).queued++;
    if (e.stream.startsWith('job-') && (e.type === 'JobSucceeded' || e.type === 'JobFailed')) of(jobId).ends++;
    if (ledger && e.type === 'JobAdmitted') of(jobId).admitted++;
    if (ledger && e.type === 'JobSettled') of(jobId).settled++;
  }
  return jobs;
}

/**
 * What breaks "each job ended once, each admission settled (charged or released) once" in
 * `jobs`; [] when nothing does. `final`: every job must be done (else open ones are allowed).
 */
export function jobProblems(jobs: Map<string, JobTally>, final: boolean): string[] {
  const problems: string[] = [];
  for (const [jobId, t] of jobs) {
    if (t.queued > 1 || t.ends > 1 || t.admitted > 1 || t.settled > 1)
      problems.push(`${jobId}: ${JSON.stringify(t)} (something twice)`);
    else if (final && t.queued === 1 && t.ends !== 1)
      problems.push(`${jobId}: queued but not ended ${JSON.stringify(t)}`);
    else if (final && t.admitted === 1 && t.settled !== 1)
      problems.push(`${jobId}: admitted but not settled ${JSON.stringify(t)}`);
    else if (t.settled === 1 && t.admitted !== 1)
      problems.push(`${jobId}: settled without an admission ${JSON.stringify(t)}`);
  }
  return problems;
}

/**
 * The billing audit over `events` as scripts/replay-billing.ts runs it: the independent fold
 * against read models the projections build from the same events. Resolves with every
 * difference and problem it found ([] when none).
 */
export async function billingDifferences(events: readonly RecordedEvent[]): Promise<string[]> {
  const report = auditLog([...events], new Date().toISOString());
  const reads = new MemoryReadStore();
  for (const e of events)
    for (const p of [organizationsProjection, balancesProjection, jobsProjection]) await p.apply(e, reads);
  const lines = await compareWithReadModels(report, reads);
  return [...lines.flatMap((l) => l.differences.map((d) => JSON.stringify(d))), ...report.problems];
}

/** A read store that remembers the names of the collections asked of it. */
class NamingReadStore implements ReadStore {
  readonly names = new Set<string>();
  constructor(private readonly inner: ReadStore) {}
  collection<T extends ReadDocument>(name: string): ReadCollection<T> {
    this.names.add(name);
    return this.inner.collection<T>(name);
  }
  ensureIndexes: ReadStore['ensureIndexes'] = (c, i) => this.inner.ensureIndexes(c, i);
  checkpoint: ReadStore['checkpoint'] = (p) => this.inner.checkpoint(p);
  setCheckpoint: ReadStore['setCheckpoint'] = (p, n) => this.inner.setCheckpoint(p, n);
  close: ReadStore['close'] = () => this.inner.close();
}

const byId = (a: ReadDocument, b: ReadDocument): number =>
  String(a.id) < String(b.id) ? -1 : String(a.id) > String(b.id) ? 1 : 0;

/**
 * Rebuilds every projection from zero over `store` into a fresh read store and compares each
 * collection it wrote, document by document, and each projection's checkpoint, with `reads`.
 * Resolves with the differences ([] when the read models equal the rebuild) and how many
 * documents were compared.
 */
export async function readModelsVersusRebuild(
  store: EventStore,
  reads: ReadStore,
): Promise<{ differences: string[]; documents: number; collections: number }> {
  const fresh = new NamingReadStore(new MemoryReadStore());
  const runner = new ProjectionRunner(store, fresh, [...PROJECTIONS]);
  await runner.catchUp();
  await runner.stop();
  const differences: string[] = [];
  let documents = 0;
  for (const name of [...fresh.names].sort()) {
    const want = (await fresh.collection(name).find({})).sort(byId);
    const have = (await reads.collection(name).find({})).sort(byId);
    documents += want.length;
    if (JSON.stringify(have) !== JSON.stringify(want)) {
      const wantById = new Map(want.map((d) => [String(d.id), JSON.stringify(d)]));
      const differing = have.filter((d) => wantById.get(String(d.id)) !== JSON.stringify(d)).map((d) => String(d.id));
      differences.push(
        `${name}: ${have.length} documents, the rebuild has ${want.length}; differing ids ${differing.slice(0, 5).join(', ')}`,
      );
    }
  }
  for (const p of PROJECTIONS) {
    const [have, want] = [await reads.checkpoint(p.name), await fresh.checkpoint(p.name)];
    if (have !== want) differences.push(`checkpoint of ${p.name}: ${have}, the rebuild ${want}`);
  }
  return { differences, documents, collections: fresh.names.size };
}
