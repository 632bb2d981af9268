/**
 * GET /v1/jobs reads O(limit) rows whatever the organization's job count: the SQLite read store's
 * query of a status-filtered page (first page and keyset cursor pages) is a search on the jobs'
 * `orgId, status, createdAt↓, id↓` index, with no sort of its own (EXPLAIN QUERY PLAN), and the
 * cursor pages walk the whole list as the in-memory reference does.
 */
import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { SqliteReadStore } from '../../adapters/sqlite/read-store.js';
import { toSqlOrder, toSqlWhere } from '../../adapters/sqlite/read-query-sql.js';
import { JOB_INDEXES, JOBS, type JobDocument } from '../../projections/jobs/job-document.js';
import { jobListFilter, parseJobFilters } from '../../api/http/routes/job-list.js';
import { listPage, page } from '../../api/http/paging.js';
import type { FindQuery } from '../../domain/ports/read-store.js';

const dir = mkdtempSync(join(tmpdir(), 'packing-job-list-plan-'));
const file = join(dir, 'read-models.db');
const store = new SqliteReadStore(file, 'test');
t.teardown(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});
const STATUSES = ['succeeded', 'failed', 'queued', 'canceled'] as const;
const JOB_COUNT = 3000;

/** A job of `org`, the i-th created (one second apart; every 7th shares its second with the previous one). */
function job(org: string, i: number): JobDocument {
  const second = i - Math.floor(i / 7);
  return {
    id: `job_${org}${String(i).padStart(6, '0')}`,
    orgId: org,
    memberId: 'usr_a',
    status: STATUSES[i % STATUSES.length]!,
    reference: null,
    source: 'api',
    createdAt: new Date(Date.UTC(2026, 0, 1) + second * 1000).toISOString(),
    position: i + 1,
  } as unknown as JobDocument;
}

const all: JobDocument[] = [];
t.before(async () => {
  await store.ensureIndexes(JOBS, JOB_INDEXES);
  const jobs = store.collection<JobDocument>(JOBS);
  for (const org of ['orga', 'orgb'])
    for (let i = 0; i < JOB_COUNT; i++) {
      const doc = job(org, i);
      all.push(doc);
      await jobs.put(doc);
    }
});

/** The read store's find of GET /v1/jobs?status=…(&cursor) as listPage asks it, as SQL. */
function listSql(status: string, after?: { sortValue: string; id: string }) {
  const filter = jobListFilter('orga', parseJobFilters({ status }, []), { q: null, createdBy: null });
  const query: FindQuery<JobDocument> = {
    ...filter,
    sortBy: 'createdAt',
    descending: true,
    limit: 21,
    ...(after ? { after } : {}),
  };
  const where = toSqlWhere(query);
  return {
    sql: `SELECT doc FROM rm_${JOBS} WHERE ${where.sql} ORDER BY ${toSqlOrder(query)} LIMIT 21`,
    params: where.params,
  };
}

t.test('a status page and its cursor pages search the (orgId, status, createdAt, id) index', async (t) => {
  const db = new Database(file, { readonly: true });
  t.teardown(() => db.close());
  db.function('port_contains', () => 0);
  const plan = (q: { sql: string; params: unknown[] }) =>
    (db.prepare(`EXPLAIN QUERY PLAN ${q.sql}`).all(...q.params) as { detail: string }[]).map((r) => r.detail);

  const first = plan(listSql('succeeded'));
  t.equal(first.length, 1, first.join(' | '));
  t.match(first[0], /^SEARCH rm_jobs USING INDEX \S+ \(<expr>=\? AND <expr>=\?\)$/, 'equality on orgId and status');
  t.notOk(first.join(' ').includes('TEMP B-TREE'), 'the index gives the order: no sort');

  const cursor = plan(listSql('succeeded', { sortValue: '2026-01-01T00:30:00.000Z', id: 'job_orga001000' }));
  t.equal(cursor.length, 1, cursor.join(' | '));
  t.match(
    cursor[0],
    /^SEARCH rm_jobs USING INDEX \S+ \(<expr>=\? AND <expr>=\? AND <expr><\?\)$/,
    'a cursor page seeks to its position on the index (createdAt range), it does not scan from the top',
  );
  t.notOk(cursor.join(' ').includes('TEMP B-TREE'));

  // Several statuses: the organization's creation-order index, still without a sort.
  const several = plan(listSql('succeeded,failed', { sortValue: '2026-01-01T00:30:00.000Z', id: 'job_orga001000' }));
  t.match(several.join(' | '), /^SEARCH rm_jobs USING INDEX \S+ \(<expr>=\? AND <expr><\?\)$/);
});

t.test('the cursor pages of a status list walk it exactly as the in-memory paging does', async (t) => {
  const jobs = store.collection<JobDocument>(JOBS);
  for (const status of ['succeeded', 'failed,queued']) {
    const filters = parseJobFilters({ status }, []);
    const filter = jobListFilter('orga', filters, { q: null, createdBy: null });
    const wanted = all.filter((j) => j.orgId === 'orga' && (filters.statuses?.has(j.status) ?? true));
    let after: { createdAt: string; id: string } | null = null;
    const seen: string[] = [];
    let pages = 0;
    for (;;) {
      const got: { data: JobDocument[]; next_cursor: string } = await listPage(jobs, filter, { limit: 100, after });
      const expected = page(wanted, { limit: 100, after });
      t.same(
        got.data.map((j) => j.id),
        expected.data.map((j) => j.id),
      );
      t.equal(got.next_cursor, expected.next_cursor);
      seen.push(...got.data.map((j) => j.id));
      pages += 1;
      if (got.next_cursor === '') break;
      const last = got.data[got.data.length - 1]!;
      after = { createdAt: last.createdAt, id: last.id };
    }
    t.equal(seen.length, wanted.length, `${status}: every job once, in ${pages} pages`);
    t.equal(new Set(seen).size, wanted.length);
  }
});
