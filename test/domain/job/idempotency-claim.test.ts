/**
 * Idempotency-Key claims (domain/job/idempotency-claim.ts, domain/job/stale-claim.ts): the
 * decider's rules, given / when / then; and a property over a real (in-memory SQLite) store:
 * however the steps of several requests with one key interleave, however many of them die half
 * way and however the clock moves inside the idempotency window, at most one job is queued, and
 * every request that gets an answer gets that job.
 */
import t from 'tap';
import fc from 'fast-check';
import { SqliteEventStore } from '../../../adapters/sqlite/event-store.js';
import { handleCommand } from '../../../domain/decider/handle.js';
import { jobDecider } from '../../../domain/job/decide.js';
import {
  claimDecider,
  IDEMPOTENCY_TIMINGS,
  judgeClaim,
  type IdempotencyClaimEvent,
} from '../../../domain/job/idempotency-claim.js';
import type { JobQueuedData } from '../../../domain/job/job.js';
import { settleStaleClaim } from '../../../domain/job/stale-claim.js';
import { jobStream } from '../../../domain/job/streams.js';
import { ACTOR, after, deciderSpec, NOW } from '../../helpers/decider-spec.js';

const claimed = (jobId: string, bodyHash = 'body', claimedAt = NOW): IdempotencyClaimEvent => ({
  type: 'IdempotencyKeyClaimed',
  id: `${jobId}:claimed`,
  data: { jobId, bodyHash, claimedAt },
});
const completed = (jobId: string): IdempotencyClaimEvent => ({
  type: 'IdempotencyClaimCompleted',
  id: `${jobId}:claim-completed`,
  data: { jobId, completedAt: NOW },
});
const released = (jobId: string): IdempotencyClaimEvent => ({
  type: 'IdempotencyClaimReleased',
  id: `${jobId}:claim-released`,
  data: { jobId, releasedAt: NOW, reason: 'refused' },
});
const claimKey = (jobId: string, now = NOW, bodyHash = 'body') => ({
  type: 'ClaimKey' as const,
  data: { jobId, bodyHash },
  metadata: { now, actor: ACTOR },
});

t.test(
  'ClaimKey claims a new key, a released claim and one past the window; nothing while a claim stands',
  async (t) => {
    const { given } = deciderSpec(t, claimDecider);
    given([])
      .when(claimKey('job_a'))
      .then([claimed('job_a')]);
    given([claimed('job_a')])
      .when(claimKey('job_b'))
      .then([]);
    given([claimed('job_a'), completed('job_a')])
      .when(claimKey('job_b'))
      .then([]);
    given([claimed('job_a'), released('job_a')])
      .when(claimKey('job_b', after(1)))
      .then([claimed('job_b', 'body', after(1))]);
    const dayLater = after(IDEMPOTENCY_TIMINGS.windowMs);
    given([claimed('job_a'), completed('job_a')])
      .when(claimKey('job_b', dayLater))
      .then([claimed('job_b', 'body', dayLater)]);
  },
);

t.test('outcomes apply only to the pending claim they name, once', async (t) => {
  const { given } = deciderSpec(t, claimDecider);
  const complete = (jobId: string) => ({
    type: 'CompleteClaim' as const,
    data: { jobId },
    metadata: { now: NOW, actor: ACTOR },
  });
  const release = (jobId: string) => ({
    type: 'ReleaseClaim' as const,
    data: { jobId, reason: 'refused' as const },
    metadata: { now: NOW, actor: ACTOR },
  });
  given([claimed('job_a')])
    .when(complete('job_a'))
    .then([completed('job_a')]);
  given([claimed('job_a')])
    .when(release('job_a'))
    .then([released('job_a')]);
  given([claimed('job_a'), completed('job_a')])
    .when(release('job_a'))
    .then([]);
  given([claimed('job_a'), released('job_a'), claimed('job_b')])
    .when(complete('job_a'))
    .then([]);
  given([claimed('job_a')])
    .when(complete('job_other'))
    .then([]);
});

t.test(
  'judgeClaim: replay a completed claim, wait for a pending one, settle a stale one, refuse another body',
  async (t) => {
    const fold = (events: IdempotencyClaimEvent[]) =>
      events.reduce((state, event) => claimDecider.evolve(state, event), claimDecider.initialState());
    t.same(judgeClaim(fold([claimed('job_a'), completed('job_a')]), 'body', after(1)), {
      kind: 'replay',
      jobId: 'job_a',
    });
    t.same(judgeClaim(fold([claimed('job_a'), completed('job_a')]), 'other', after(1)), { kind: 'other_body' });
    t.same(judgeClaim(fold([claimed('job_a')]), 'body', after(IDEMPOTENCY_TIMINGS.pendingStaleAfterMs - 1)), {
      kind: 'wait',
      jobId: 'job_a',
    });
    t.same(judgeClaim(fold([claimed('job_a')]), 'other', after(1)), { kind: 'other_body' });
    t.same(judgeClaim(fold([claimed('job_a')]), 'body', after(IDEMPOTENCY_TIMINGS.pendingStaleAfterMs)), {
      kind: 'stale',
      jobId: 'job_a',
    });
    t.same(judgeClaim(fold([claimed('job_a'), released('job_a')]), 'other', after(1)), { kind: 'claim' });
  },
);

/** One request's admission, cut into the steps that touch the store (application/job-admission.ts). */
type Phase = 'judge' | 'settle' | 'queue' | 'complete' | 'answered' | 'dead';
interface Request {
  phase: Phase;
  jobId: string;
  staleJobId?: string;
  answer?: string;
}

const STREAM = 'idem-org_p-key';
const queuedData = (jobId: string, createdAt: string): JobQueuedData => ({
  jobId,
  orgId: 'org_p',
  keyId: 'key_p',
  memberId: 'usr_p',
  source: 'api',
  reference: null,
  createdAt,
  expiresAt: '2099-01-01T00:00:00.000Z',
  items: 1,
  maxVehicles: 1,
  budgetMs: 1000,
  reservedMicros: 0,
  rateCardVersion: 1,
  warnings: [],
});

t.test(
  'property: any interleaving of requests with one key, some dying half way, queues at most one job and answers only with it',
  async (t) => {
    // Ticks up to past the pending timeout, so that a request stalls into staleness between two of its steps.
    const step = fc.oneof(
      { arbitrary: fc.record({ kind: fc.constant('step' as const), who: fc.nat(2) }), weight: 6 },
      { arbitrary: fc.record({ kind: fc.constant('die' as const), who: fc.nat(2) }), weight: 1 },
      {
        arbitrary: fc.record({
          kind: fc.constant('tick' as const),
          ms: fc.integer({ min: 1, max: 2 * IDEMPOTENCY_TIMINGS.pendingStaleAfterMs }),
        }),
        weight: 2,
      },
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 60 }), async (steps) => {
        const store = new SqliteEventStore(':memory:');
        try {
          let clock = Date.parse(NOW);
          const now = (): string => new Date(clock).toISOString();
          let next = 0;
          const requests: Request[] = Array.from({ length: 3 }, () => ({
            phase: 'judge',
            jobId: `job_${next++}`,
          }));
          const queued = new Set<string>();
          const advance = async (r: Request): Promise<void> => {
            switch (r.phase) {
              case 'judge': {
                const at = now();
                const done = await handleCommand(store, STREAM, claimDecider, claimKey(r.jobId, at));
                if (done.events.length > 0) return void (r.phase = 'queue');
                const verdict = judgeClaim(done.state, 'body', at);
                if (verdict.kind === 'replay') Object.assign(r, { phase: 'answered', answer: verdict.jobId });
                else if (verdict.kind === 'stale') Object.assign(r, { phase: 'settle', staleJobId: verdict.jobId });
                return; // wait: judge again at its next step
              }
              case 'settle':
                await settleStaleClaim(store, STREAM, r.staleJobId!, now(), ACTOR);
                r.phase = 'judge';
                return;
              case 'queue': {
                const done = await handleCommand(store, jobStream(r.jobId), jobDecider, {
                  type: 'QueueJob',
                  data: queuedData(r.jobId, now()),
                  metadata: { now: now(), actor: ACTOR },
                });
                if (done.events.length > 0) {
                  queued.add(r.jobId);
                  r.phase = 'complete';
                } else Object.assign(r, { phase: 'judge', jobId: `job_${next++}` }); // voided: judge again with a new id
                return;
              }
              case 'complete':
                await handleCommand(store, STREAM, claimDecider, {
                  type: 'CompleteClaim',
                  data: { jobId: r.jobId },
                  metadata: { now: now(), actor: ACTOR },
                });
                Object.assign(r, { phase: 'answered', answer: r.jobId });
                return;
              case 'answered':
              case 'dead':
                return;
            }
          };
          for (const s of steps) {
            if (s.kind === 'tick') clock += s.ms;
            else if (s.kind === 'die')
              requests[s.who]!.phase = requests[s.who]!.phase === 'answered' ? 'answered' : 'dead';
            else await advance(requests[s.who]!);
          }
          // Everyone still alive finishes: time moves past any stale claim, each takes its steps.
          clock += IDEMPOTENCY_TIMINGS.pendingStaleAfterMs;
          for (
            let round = 0;
            round < 20 && requests.some((r) => r.phase !== 'answered' && r.phase !== 'dead');
            round++
          ) {
            for (const r of requests) await advance(r);
          }
          const answers = new Set(requests.flatMap((r) => (r.answer ? [r.answer] : [])));
          const everyoneAnswered = requests.every((r) => r.phase === 'answered' || r.phase === 'dead');
          return queued.size <= 1 && everyoneAnswered && answers.size <= 1 && [...answers].every((a) => queued.has(a));
        } finally {
          await store.close();
        }
      }),
      { numRuns: 300 },
    );
    t.pass('300 interleavings: at most one job queued, every living request answered with it');
  },
);
