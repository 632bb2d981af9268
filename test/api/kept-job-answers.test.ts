/**
 * Kept JSON answers of jobs (api/http/jobs/job-answer.ts, api/http/jobs/job-list-answers.ts):
 * the same document answers the same bytes without a new view, a kept answer never shows a
 * plan link past the job's `expires_at`, a job whose `queue_ms` still grows is never kept, and a
 * kept page is sent only at its organization's jobs version and within its span of time.
 */
import t from 'tap';
import type { Request } from 'express';
import type { JobDocument } from '../../projections/jobs/job-document.js';
import { jobAnswer } from '../../api/http/jobs/job-answer.js';
import { JobListAnswers, pageSpan } from '../../api/http/jobs/job-list-answers.js';
import { jobView } from '../../api/http/jobs/job-view.js';
import { jsonAnswer } from '../../api/http/json-answer.js';
import type { RouteContext } from '../../api/http/context.js';

const EXPIRES = '2026-12-01T00:00:00.000Z';

function job(over: Partial<JobDocument> = {}): JobDocument {
  return {
    id: 'job_abc',
    orgId: 'org_a',
    memberId: 'usr_a',
    status: 'succeeded',
    reference: null,
    source: 'api',
    createdAt: '2026-11-01T00:00:00.000Z',
    startedAt: '2026-11-01T00:00:01.000Z',
    finishedAt: '2026-11-01T00:00:02.000Z',
    expiresAt: EXPIRES,
    items: 4,
    maxVehicles: 1,
    budgetMs: 1000,
    rateCardVersion: 1,
    reservedMicros: 2_000_000,
    chargedMicros: 1_100_000,
    breakdown: { base: 100_000, vehicles: 1_000_000, compute: 0, large_load: 0 },
    warnings: [],
    error: null,
    progress: { stage: 'done', vehiclesDone: 1, placedItems: 4 },
    computeStartedAt: '2026-11-01T00:00:01.000Z',
    itemsPlaced: 4,
    itemsUnplaced: 0,
    vehiclesUsed: 1,
    totalWeight: 40,
    volumeUtilization: 0.1,
    computeMs: 900,
    position: 7,
    ...over,
  };
}

const ctx = {
  signingKey: Buffer.from('k'.repeat(32)),
  publicBaseUrl: 'https://api.example.com',
  clock: () => '2026-11-02T00:00:00.000Z',
} as unknown as RouteContext;
const req = {} as Request;

t.test('a kept job answer is the view of its document, and never shows a link past expires_at', async (t) => {
  const doc = job();
  const before = '2026-11-30T23:59:59.999Z';
  const a = jobAnswer(ctx, req, doc, before);
  t.equal(a.text, JSON.stringify(jobView(ctx, req, doc, before)));
  t.equal(jobAnswer(ctx, req, doc, '2026-11-15T00:00:00.000Z'), a, 'the same answer object: kept');
  const parsed = JSON.parse(a.text);
  t.match(parsed.pdf_url, /^https:\/\/api\.example\.com\/plans\/job_abc\.pdf\?expires=\d+&signature=/);

  for (const at of [EXPIRES, '2027-01-01T00:00:00.000Z']) {
    const expired = JSON.parse(jobAnswer(ctx, req, doc, at).text);
    t.equal(expired.pdf_url, '', `no PDF link at ${at}`);
    t.equal(expired.viewer_url, '');
  }
  t.equal(JSON.parse(jobAnswer(ctx, req, doc, before).text).pdf_url, parsed.pdf_url, 'a clock set back shows them');
  const elsewhere = { ...ctx, publicBaseUrl: 'https://other.example.com' } as RouteContext;
  t.match(JSON.parse(jobAnswer(elsewhere, req, doc, before).text).pdf_url, /^https:\/\/other\.example\.com\//);
});

t.test('a job waiting for a solver is never kept: its queue_ms grows', async (t) => {
  const queued = job({
    status: 'queued',
    startedAt: null,
    finishedAt: null,
    computeStartedAt: null,
    chargedMicros: null,
  });
  const a = JSON.parse(jobAnswer(ctx, req, queued, '2026-11-01T00:00:05.000Z').text);
  const b = JSON.parse(jobAnswer(ctx, req, queued, '2026-11-01T00:00:09.000Z').text);
  t.same([a.summary.queue_ms, b.summary.queue_ms], [5000, 9000]);
  t.equal(pageSpan([job(), queued], '2026-11-01T00:00:09.000Z'), null, 'nor a page showing it');
});

t.test('a kept page: only at its version, within its span, bounded', async (t) => {
  const now = '2026-11-02T00:00:00.000Z';
  const span = pageSpan([job(), job({ id: 'job_b', expiresAt: '2026-11-20T00:00:00.000Z' })], now)!;
  t.same(span, { from: now, until: '2026-11-20T00:00:00.000Z' }, 'until the first link expiry');
  t.same(pageSpan([job({ status: 'failed' })], now), { from: now, until: null }, 'no link: no end');
  const pages = new JobListAnswers(2, 10_000);
  const answer = jsonAnswer({ data: [1], next_cursor: '' });
  pages.keep('q1', 3, span, answer);
  t.equal(pages.get('q1', 3, '2026-11-10T00:00:00.000Z'), answer);
  t.equal(pages.get('q1', 3, '2026-11-20T00:00:00.000Z'), undefined, 'not at the first expiry');
  t.equal(pages.get('q1', 3, '2026-11-10T00:00:00.000Z'), undefined, 'and dropped');
  pages.keep('q1', 3, span, answer);
  t.equal(pages.get('q1', 4, '2026-11-10T00:00:00.000Z'), undefined, 'another version of the jobs');
  pages.keep('q1', 3, span, answer);
  t.equal(pages.get('q1', 3, '2026-11-01T00:00:00.000Z'), undefined, 'not before it was made');
  for (const k of ['a', 'b', 'c']) pages.keep(k, 1, span, answer);
  t.same(pages.size, { pages: 2, bytes: 2 * answer.length }, 'at most 2 pages');
  t.equal(pages.get('a', 1, now), undefined, 'the oldest went first');
  const big = new JobListAnswers(10, 3 * answer.length);
  for (const k of ['a', 'b', 'c', 'd']) big.keep(k, 1, span, answer);
  t.same(big.size, { pages: 3, bytes: 3 * answer.length }, 'bounded in bytes');
});
