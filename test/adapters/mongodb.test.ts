/**
 * MongoDB read store. The translation of port queries into MongoDB query documents is pure and
 * checked here on every run, with exact objects. The contract suite runs against a real server
 * when MONGODB_URL is set (a fresh database per store, dropped afterwards); no MongoDB server can
 * be installed on the build machines (DESIGN §2), so it is skipped, saying so, otherwise.
 */
import t from 'tap';
import { randomBytes } from 'node:crypto';
import { MongoReadStore } from '../../adapters/mongodb/read-store.js';
import {
  escapeRegex,
  mongoField,
  putFilter,
  toMongoFilter,
  toMongoIndex,
  toMongoSort,
} from '../../adapters/mongodb/query.js';
import { jobListFilter, parseJobFilters } from '../../api/http/routes/job-list.js';
import type { JobDocument } from '../../projections/jobs/job-document.js';
import { READ_MODEL_INDEXES } from '../../projections/indexes.js';
import { readStoreContract } from '../contracts/read-store.contract.js';
import { mongoStandIn } from '../helpers/mongo-stand-in.js';

interface Row {
  id: string;
  org: string;
  at: string;
  n: number | null;
  ref?: string;
  meta: { owner: string };
}

t.test('field names: id is _id, other paths unchanged', async (t) => {
  t.equal(mongoField('id'), '_id');
  t.equal(mongoField('orgId'), 'orgId');
  t.equal(mongoField('fields.name'), 'fields.name');
  t.equal(mongoField('identity'), 'identity');
});

t.test('regex escaping: metacharacters backslashed, NUL as \\x00, the rest as typed', async (t) => {
  t.equal(escapeRegex('ref-b'), 'ref-b');
  t.equal(escapeRegex('a.c'), 'a\\.c');
  t.equal(escapeRegex('\\^$.*+?()[]{}|'), '\\\\\\^\\$\\.\\*\\+\\?\\(\\)\\[\\]\\{\\}\\|');
  t.equal(escapeRegex('x\0y'), 'x\\x00y');
  t.equal(escapeRegex('Zoë / #1 ✓'), 'Zoë / #1 ✓');
  // JavaScript regexes read these escapes as PCRE does: the pattern finds the text literally.
  for (const text of ['a.c', '(x)*', '[^a]', '\\d+', 'a|b', '$1', '{2}', 'x\0y', 'Über?']) {
    const re = new RegExp(escapeRegex(text), 'i');
    t.ok(re.test(`before ${text.toUpperCase()} after`), `${JSON.stringify(text)} found in any case`);
    t.notOk(re.test(text.slice(1)), `${JSON.stringify(text)} not found in less`);
  }
  t.notOk(new RegExp(escapeRegex('a.c'), 'i').test('abc'));
});

t.test('filters: equality, conditions, nested paths, text and cursor as exact query documents', async (t) => {
  t.same(toMongoFilter<Row>({}), {});
  t.same(toMongoFilter<Row>({ where: { org: 'o1', n: null, id: 'x', ref: undefined } }), {
    org: 'o1',
    n: null,
    _id: 'x',
  });
  t.same(
    toMongoFilter<Row>({
      where: { at: { gt: '2026-01-01', lte: '2026-02-01' }, n: { in: [1, null], gte: 0, lt: 9 }, org: { eq: 'o1' } },
    }),
    { at: { $gt: '2026-01-01', $lte: '2026-02-01' }, n: { $in: [1, null], $gte: 0, $lt: 9 }, org: { $eq: 'o1' } },
  );
  t.same(toMongoFilter<Row>({ where: { ref: { exists: true }, n: { exists: false } } }), {
    ref: { $ne: null },
    n: { $not: { $ne: null } },
  });
  t.same(toMongoFilter<Row>({ where: { n: {} } }), {}, 'an empty condition is left out, not an equality with {}');
  t.same(toMongoFilter<Row>({ where: { 'meta.owner': 'usr_a' } }), { 'meta.owner': 'usr_a' });
  t.same(toMongoFilter<Row>({ where: { org: 'o1' }, text: { query: 'A.b', fields: ['ref', 'id'] } }), {
    org: 'o1',
    $and: [{ $or: [{ ref: { $regex: 'A\\.b', $options: 'i' } }, { _id: { $regex: 'A\\.b', $options: 'i' } }] }],
  });
  t.throws(() => toMongoFilter<Row>({ text: { query: 'x', fields: [] } }), RangeError);
});

t.test('keyset cursor: sort value bound, then id for ties, in the sort direction', async (t) => {
  const after = { sortValue: '2026-11-01T00:00:00.000Z', id: 'job_b' };
  t.same(toMongoFilter<Row>({ where: { org: 'o1' }, sortBy: 'at', descending: true, after }), {
    org: 'o1',
    $and: [{ at: { $lte: after.sortValue } }, { $or: [{ at: { $lt: after.sortValue } }, { _id: { $lt: 'job_b' } }] }],
  });
  t.same(toMongoFilter<Row>({ sortBy: 'n', after: { sortValue: 5, id: 'a' } }), {
    $and: [{ n: { $gte: 5 } }, { $or: [{ n: { $gt: 5 } }, { _id: { $gt: 'a' } }] }],
  });
  t.same(
    toMongoFilter<Row>({ after: { sortValue: 'ignored', id: 'k' } }),
    { $and: [{ _id: { $gt: 'k' } }] },
    'sorted by id: only the id',
  );
  t.same(toMongoFilter<Row>({ sortBy: 'id', descending: true, after: { sortValue: 'k', id: 'k' } }), {
    $and: [{ _id: { $lt: 'k' } }],
  });
  t.same(toMongoSort<Row>({ sortBy: 'at', descending: true }), { at: -1, _id: -1 });
  t.same(toMongoSort<Row>({ sortBy: 'n' }), { n: 1, _id: 1 });
  t.same(toMongoSort<Row>({}), { _id: 1 });
  t.same(Object.keys(toMongoSort<Row>({ sortBy: 'at' })), ['at', '_id'], 'the sort field first');
});

t.test('GET /v1/jobs filters become one query document the jobs indexes serve', async (t) => {
  const details: { path: string; code: string; message: string }[] = [];
  const filters = parseJobFilters(
    {
      status: 'queued,running',
      reference: 'PO-1',
      created_after: '2026-11-01T02:00:00+02:00',
      created_before: '2026-11-02T00:00:00.5Z',
      project_id: 'prj_a1',
    },
    details,
  );
  t.same(details, []);
  const filter = jobListFilter('org_1', filters, { q: 'po-1 (x)', createdBy: 'usr_m' });
  t.same(
    toMongoFilter<JobDocument>({
      ...filter,
      sortBy: 'createdAt',
      descending: true,
      after: { sortValue: '2026-11-01T12:00:00.000Z', id: 'job_z' },
    }),
    {
      orgId: 'org_1',
      status: { $in: ['queued', 'running'] },
      reference: 'PO-1',
      createdAt: { $gt: '2026-11-01T00:00:00.000Z', $lt: '2026-11-02T00:00:00.500Z' },
      projectId: 'prj_a1',
      memberId: 'usr_m',
      $and: [
        {
          $or: [
            { reference: { $regex: 'po-1 \\(x\\)', $options: 'i' } },
            { _id: { $regex: 'po-1 \\(x\\)', $options: 'i' } },
          ],
        },
        { createdAt: { $lte: '2026-11-01T12:00:00.000Z' } },
        { $or: [{ createdAt: { $lt: '2026-11-01T12:00:00.000Z' } }, { _id: { $lt: 'job_z' } }] },
      ],
    },
  );
  const far = parseJobFilters(
    { created_after: '9999-12-31T23:59:59-23:59', created_before: '9999-12-31T23:59:59-23:59' },
    details,
  );
  t.same(
    toMongoFilter<JobDocument>(jobListFilter('o', far, { q: null, createdBy: null })),
    {
      orgId: 'o',
      createdAt: { $gt: '9999-12-31T23:59:59.999Z' },
    },
    'bounds past year 9999: after = none, before = no bound',
  );
});

t.test('indexes: keys in order with id as _id; the read models declare the list indexes', async (t) => {
  t.same(
    toMongoIndex({
      keys: [
        ['orgId', 1],
        ['createdAt', -1],
        ['id', -1],
      ],
    }),
    { key: { orgId: 1, createdAt: -1, _id: -1 } },
  );
  t.same(
    Object.keys(
      toMongoIndex({
        keys: [
          ['z', 1],
          ['a', -1],
          ['m', 1],
        ],
      }).key,
    ),
    ['z', 'a', 'm'],
  );
  const keys = (collection: string) => READ_MODEL_INDEXES[collection]!.map((s) => toMongoIndex(s).key);
  t.same(keys('jobs'), [
    { orgId: 1, createdAt: -1, _id: -1 },
    { orgId: 1, status: 1, createdAt: -1, _id: -1 },
    { orgId: 1, reference: 1, createdAt: -1, _id: -1 },
    { orgId: 1, projectId: 1, createdAt: -1, _id: -1 },
    { orgId: 1, memberId: 1, createdAt: -1, _id: -1 },
    { status: 1, expiresAt: 1 },
    { status: 1, chargedMicros: 1 },
  ]);
  const saved = [
    { orgId: 1, deleted: 1, createdAt: -1, _id: -1 },
    { orgId: 1, deleted: 1, 'createdBy.id': 1, createdAt: -1, _id: -1 },
  ];
  t.same(keys('vehicles'), saved);
  t.same(keys('templates'), saved);
  t.same(keys('projects'), [
    { orgId: 1, createdAt: -1, _id: -1 },
    { orgId: 1, createdById: 1, createdAt: -1, _id: -1 },
    { packingJobId: 1 },
  ]);
  t.same(keys('usage_days'), [{ orgId: 1, date: 1 }]);
});

t.test('guarded put: the filter matches only a stored document with a lower or no position', async (t) => {
  t.same(putFilter({ id: 'job_1', position: 42 }), { _id: 'job_1', position: { $not: { $gte: 42 } } });
  t.same(putFilter({ id: 'key_hash' }), { _id: 'key_hash' });
  t.same(putFilter({ id: 'x', position: '7' }), { _id: 'x' }, 'only a numeric position guards');
});

t.test('MongoReadStore through a stand-in that evaluates the MongoDB operators it sends (no server)', async (t) => {
  const { client, dbs } = mongoStandIn();
  let n = 0;
  readStoreContract(t, async () => new MongoReadStore(client, `db${++n}`));

  t.test('documents are stored under _id, come back without it; checkpoints in their own collection', async (t) => {
    const store = new MongoReadStore(client, 'raw');
    await store
      .collection<Row>('rows')
      .put({ id: 'a', org: 'o1', at: 'x', n: 1, ref: undefined, meta: { owner: 'u' } });
    t.strictSame(
      [...dbs.get('raw')!.collection('rows').docs.values()],
      [{ _id: 'a', id: 'a', org: 'o1', at: 'x', n: 1, meta: { owner: 'u' } }],
      'undefined fields left out',
    );
    t.strictSame(await store.collection<Row>('rows').get('a'), {
      id: 'a',
      org: 'o1',
      at: 'x',
      n: 1,
      meta: { owner: 'u' },
    });
    await store.setCheckpoint('jobs', 7);
    t.strictSame([...dbs.get('raw')!.collection('checkpoints').docs.values()], [{ _id: 'jobs', position: 7 }]);
    t.throws(() => store.collection('checkpoints'), /checkpoints/);
    await store.ensureIndexes('jobs', READ_MODEL_INDEXES['jobs']!);
    t.same(
      dbs.get('raw')!.collection('jobs').indexes,
      READ_MODEL_INDEXES['jobs']!.map((s) => toMongoIndex(s).key),
    );
  });
});

const url = process.env['MONGODB_URL'];

t.test(
  'MongoReadStore contract',
  url
    ? {}
    : {
        skip: 'MONGODB_URL is not set: no MongoDB server on this machine; set it to run the contract suite against one',
      },
  async (t) => {
    const opened: MongoReadStore[] = [];
    t.teardown(async () => {
      for (const store of opened) {
        await store.dropDatabase();
        await store.close();
      }
    });
    const open = async (): Promise<MongoReadStore> => {
      const store = await MongoReadStore.connect(url!, `packing_test_${randomBytes(6).toString('hex')}`, {});
      opened.push(store);
      return store;
    };
    readStoreContract(t, open);

    t.test("connect creates the read models' indexes", async (t) => {
      const store = await MongoReadStore.connect(url!, `packing_test_${randomBytes(6).toString('hex')}`);
      opened.push(store);
      const db = store.client.db(store.database);
      for (const [collection, specs] of Object.entries(READ_MODEL_INDEXES)) {
        // Key order matters in an index: compare the keys as JSON text.
        const built = new Set((await db.collection(collection).indexes()).map((i) => JSON.stringify(i.key)));
        for (const spec of specs)
          t.ok(
            built.has(JSON.stringify(toMongoIndex(spec).key)),
            `${collection} ${JSON.stringify(toMongoIndex(spec).key)}`,
          );
      }
      t.throws(() => store.collection('checkpoints'), /checkpoints/);
    });

    t.test('documents are stored under _id and come back without it', async (t) => {
      const store = await open();
      const c = store.collection<Row>('raw');
      await c.put({ id: 'a', org: 'o1', at: 'x', n: 1, meta: { owner: 'u' } });
      const raw = await store.client
        .db(store.database)
        .collection('raw')
        .findOne({ _id: 'a' as never });
      t.same(raw, { _id: 'a', id: 'a', org: 'o1', at: 'x', n: 1, meta: { owner: 'u' } });
      t.strictSame(await c.get('a'), { id: 'a', org: 'o1', at: 'x', n: 1, meta: { owner: 'u' } });
    });
  },
);
