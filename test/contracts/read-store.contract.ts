/** Contract every ReadStore adapter must honour (domain/ports/read-store.ts). */
import type { Test } from 'tap';
import type { ReadCollection, ReadStore } from '../../domain/ports/read-store.js';

interface Doc {
  id: string;
  org: string;
  n: number;
}

/** A document with every kind of field the filters meet. */
interface Row {
  id: string;
  org: string;
  /** RFC 3339 (sort field with ties). */
  at: string;
  status: string;
  n: number | null;
  label: string | null;
  ref?: string;
  meta: { owner: string; tags: string[] };
  flag: boolean;
  position?: number;
}

const row = (id: string, over: Partial<Row> = {}): Row => ({
  id,
  org: 'o1',
  at: '2026-11-01T00:00:00.000Z',
  status: 'queued',
  n: 0,
  label: null,
  meta: { owner: 'usr_a', tags: [] },
  flag: false,
  ...over,
});

const ids = (docs: { id: string }[]): string[] => docs.map((d) => d.id);

async function fill(c: ReadCollection<Row>, rows: Row[]): Promise<void> {
  for (const r of rows) await c.put(r);
}

export function readStoreContract(t: Test, open: () => Promise<ReadStore>): void {
  t.test('put, get, replace and delete documents', async (t) => {
    const store = await open();
    const c = store.collection<Doc>('docs');
    await c.put({ id: 'a', org: 'o1', n: 1 });
    t.same(await c.get('a'), { id: 'a', org: 'o1', n: 1 });
    await c.put({ id: 'a', org: 'o1', n: 2 });
    t.equal((await c.get('a'))?.n, 2);
    await c.delete('a');
    t.equal(await c.get('a'), undefined);
    await c.delete('a');
    t.equal(await c.get('never'), undefined);
  });

  t.test('documents come back exactly as put: nested objects, arrays, null, booleans, numbers', async (t) => {
    const store = await open();
    const c = store.collection<Row & { deep: unknown }>('exact');
    const doc = {
      ...row('x', { n: 2 ** 40 + 0.5, label: 'Ünïcode ✓', ref: 'r' }),
      deep: { a: [1, { b: null }, 'c'], e: {}, f: -3 },
    };
    await c.put(doc);
    t.strictSame(await c.get('x'), doc);
    t.strictSame(await c.find({ where: { id: 'x' } }), [doc]);
  });

  t.test('returned and stored documents are copies', async (t) => {
    const store = await open();
    const c = store.collection<Doc>('copies');
    const put = { id: 'a', org: 'o1', n: 1 };
    await c.put(put);
    put.n = 50;
    const doc = (await c.get('a'))!;
    doc.n = 99;
    const [found] = await c.find();
    found!.n = 77;
    t.equal((await c.get('a'))?.n, 1);
  });

  t.test('put is guarded by the event position: not newer changes nothing', async (t) => {
    const store = await open();
    const c = store.collection<Row>('guard');
    await c.put(row('a', { position: 5, label: 'five' }));
    await c.put(row('a', { position: 3, label: 'three' }));
    t.equal((await c.get('a'))?.label, 'five', 'an older event does not go back');
    await c.put(row('a', { position: 5, label: 'replayed' }));
    t.equal((await c.get('a'))?.label, 'five', 'the same event again changes nothing');
    await c.put(row('a', { position: 6, label: 'six' }));
    t.same(await c.get('a'), row('a', { position: 6, label: 'six' }));
    // Documents without a position are replaced unconditionally, and a positioned one replaces them.
    await c.put(row('b', { label: 'first' }));
    await c.put(row('b', { label: 'second' }));
    t.equal((await c.get('b'))?.label, 'second');
    await c.put(row('b', { position: 1, label: 'positioned' }));
    t.equal((await c.get('b'))?.label, 'positioned');
    t.equal(await c.count(), 2);
  });

  t.test('find filters by equality, sorts (ties by id) and limits', async (t) => {
    const store = await open();
    const c = store.collection<Doc>('find');
    for (const [id, org, n] of [
      ['a', 'o1', 3],
      ['b', 'o2', 1],
      ['c', 'o1', 2],
      ['d', 'o1', 5],
      ['e', 'o1', 3],
    ] as const) {
      await c.put({ id, org, n });
    }
    t.same(ids(await c.find({ where: { org: 'o1' }, sortBy: 'n' })), ['c', 'a', 'e', 'd']);
    t.same(
      ids(await c.find({ where: { org: 'o1' }, sortBy: 'n', descending: true })),
      ['d', 'e', 'a', 'c'],
      'ties by id, descending too',
    );
    t.same(ids(await c.find({ where: { org: 'o1' }, sortBy: 'n', descending: true, limit: 2 })), ['d', 'e']);
    t.same(ids(await c.find()), ['a', 'b', 'c', 'd', 'e'], 'no sort field: id order');
    t.same(ids(await c.find({ descending: true, limit: 1 })), ['e']);
    t.same(ids(await c.find({ where: { org: 'o1', n: 3 } })), ['a', 'e'], 'several equalities combine');
    t.same(ids(await c.find({ where: { org: 'o3' } })), []);
    t.same(ids(await c.find({ where: { org: undefined, n: 1 } })), ['b'], 'undefined entries are ignored');
    await t.rejects(c.find({ limit: 0 }), RangeError);
    await t.rejects(c.find({ limit: 1.5 }), RangeError);
  });

  t.test('conditions: in, ranges, exists, null and absent, nested fields', async (t) => {
    const store = await open();
    const c = store.collection<Row>('conditions');
    await fill(c, [
      row('a', {
        status: 'queued',
        n: 1,
        at: '2026-11-01T10:00:00.000Z',
        label: 'x',
        ref: 'R1',
        meta: { owner: 'usr_a', tags: ['t'] },
      }),
      row('b', {
        status: 'running',
        n: 2,
        at: '2026-11-02T10:00:00.000Z',
        label: null,
        meta: { owner: 'usr_b', tags: [] },
      }),
      row('c', { status: 'succeeded', n: 3, at: '2026-11-03T10:00:00.000Z', label: 'z', ref: 'R3' }),
      row('d', { status: 'failed', n: null, at: '2026-11-04T10:00:00.000Z', flag: true }),
    ]);
    t.same(ids(await c.find({ where: { status: { in: ['running', 'failed', 'nope'] } } })), ['b', 'd']);
    t.same(ids(await c.find({ where: { status: { in: [] } } })), [], 'an empty list matches nothing');
    t.same(ids(await c.find({ where: { n: { gt: 1 } } })), ['b', 'c'], 'null is outside every range');
    t.same(ids(await c.find({ where: { n: { gte: 1, lt: 3 } } })), ['a', 'b']);
    t.same(ids(await c.find({ where: { n: { lte: 2 } } })), ['a', 'b']);
    t.same(
      ids(await c.find({ where: { at: { gt: '2026-11-01T10:00:00.000Z', lt: '2026-11-04T10:00:00.000Z' } } })),
      ['b', 'c'],
      'exclusive string bounds',
    );
    t.same(ids(await c.find({ where: { at: { gte: '2026-11-01T10:00:00.000Z', lte: '2026-11-02T10:00:00.000Z' } } })), [
      'a',
      'b',
    ]);
    t.same(ids(await c.find({ where: { status: { gt: 5 } as never } })), [], 'a string field is never beyond a number');
    t.same(ids(await c.find({ where: { label: null } })), ['b', 'd'], 'null equality');
    t.same(ids(await c.find({ where: { ref: { exists: false } } })), ['b', 'd'], 'absent = exists false');
    t.same(ids(await c.find({ where: { ref: { exists: true } } })), ['a', 'c']);
    t.same(ids(await c.find({ where: { label: { exists: true } } })), ['a', 'c'], 'null does not exist');
    t.same(ids(await c.find({ where: { ref: { in: ['R3', null] } } })), ['b', 'c', 'd'], 'in [null] takes absent ones');
    t.same(ids(await c.find({ where: { ref: { eq: 'R1' }, status: 'queued' } })), ['a']);
    t.same(ids(await c.find({ where: { 'meta.owner': 'usr_b' } })), ['b'], 'nested field');
    t.same(ids(await c.find({ where: { 'meta.owner': { in: ['usr_a'] }, flag: false } })), ['a', 'c']);
    t.same(ids(await c.find({ where: { flag: true } })), ['d']);
    t.same(ids(await c.find({ where: { id: { in: ['c', 'a', 'zz'] } } })), ['a', 'c'], 'conditions on id');
    t.same(ids(await c.find({ where: { id: { gt: 'b' } } })), ['c', 'd']);
    t.same(ids(await c.find({ where: { n: {} } })), ['a', 'b', 'c', 'd'], 'an empty condition constrains nothing');
  });

  t.test('text: case-insensitive substring over the named fields, taken literally', async (t) => {
    const store = await open();
    const c = store.collection<Row>('text');
    await fill(c, [
      row('job_abc123', { label: 'Pallets to Berlin', ref: 'PO-77' }),
      row('job_def456', { label: 'a.c (special) [x]*+?^$|\\ {2}', ref: 'po-78' }),
      row('job_xyz789', { label: null, meta: { owner: 'usr_berlin', tags: ['berlin'] } }),
    ]);
    const find = (query: string, fields: ('label' | 'ref' | 'id' | 'meta.owner')[] = ['label', 'ref', 'id']) =>
      c.find({ text: { query, fields } }).then(ids);
    t.same(await find('berlin'), ['job_abc123'], 'any case; only the named fields');
    t.same(await find('BERLIN', ['meta.owner']), ['job_xyz789'], 'nested field');
    t.same(await find('po-7'), ['job_abc123', 'job_def456']);
    t.same(await find('ABC1'), ['job_abc123'], 'in the id');
    t.same(await find('a.c'), ['job_def456'], '. is a dot, not any character');
    t.same(await find('(special) [x]*+?^$|\\ {2}'), ['job_def456'], 'every regex metacharacter is literal');
    t.same(await find('.*'), [], '.* is not a wildcard');
    t.same(
      await find(''),
      ['job_abc123', 'job_def456', 'job_xyz789'],
      'empty text: every document with a string field',
    );
    t.same(
      await c.find({ text: { query: 'berlin', fields: ['label'] }, where: { ref: 'nope' } }).then(ids),
      [],
      'text and where combine',
    );
    await t.rejects(c.find({ text: { query: 'x', fields: [] } }), RangeError);
  });

  t.test('sort order: null first, numbers before strings, strings by code point', async (t) => {
    const store = await open();
    const c = store.collection<Row>('order');
    await fill(c, [
      row('1', { label: 'a' }),
      row('2', { label: 'Z' }),
      row('3', { label: 'é' }),
      row('4', { label: '\u{1F600}' }),
      row('5', { label: '\uFF21' }),
      row('6', { label: null }),
    ]);
    t.same(ids(await c.find({ sortBy: 'label' })), ['6', '2', '1', '3', '5', '4']);
    t.same(ids(await c.find({ sortBy: 'label', descending: true })), ['4', '5', '3', '1', '2', '6']);
    await fill(c, [row('7', { n: 10 }), row('8', { n: 9 })]);
    t.same(
      ids(await c.find({ where: { id: { in: ['7', '8'] } }, sortBy: 'n' })),
      ['8', '7'],
      'numbers by value, not as text',
    );
  });

  t.test('keyset cursor: pages after (sort value, id), ties split across pages, stable under inserts', async (t) => {
    const store = await open();
    const c = store.collection<Row>('paging');
    const at = (h: number) => `2026-11-01T${String(h).padStart(2, '0')}:00:00.000Z`;
    // Ties: b1/b2/b3 share a time, d1/d2 too; x is another organization.
    await fill(c, [
      row('a', { at: at(1) }),
      row('b1', { at: at(2) }),
      row('b3', { at: at(2) }),
      row('b2', { at: at(2) }),
      row('c', { at: at(3), status: 'failed' }),
      row('d1', { at: at(4) }),
      row('d2', { at: at(4) }),
      row('x', { at: at(5), org: 'o2' }),
    ]);
    const walk = async (descending: boolean, limit: number, where: Record<string, unknown> = { org: 'o1' }) => {
      const seen: string[][] = [];
      let after: { sortValue: string; id: string } | undefined;
      for (let i = 0; i < 20; i += 1) {
        const page = await c.find({ where, sortBy: 'at', descending, limit, ...(after ? { after } : {}) });
        if (page.length === 0) break;
        seen.push(ids(page));
        const last = page[page.length - 1]!;
        after = { sortValue: last.at, id: last.id };
      }
      return seen;
    };
    t.same(
      await walk(true, 2),
      [['d2', 'd1'], ['c', 'b3'], ['b2', 'b1'], ['a']],
      'newest first, ties by id descending',
    );
    t.same(await walk(false, 3), [['a', 'b1', 'b2'], ['b3', 'c', 'd1'], ['d2']], 'oldest first');
    t.same(
      await walk(true, 1, { org: 'o1', status: 'queued' }),
      [['d2'], ['d1'], ['b3'], ['b2'], ['b1'], ['a']],
      'filters apply on every page',
    );

    const first = await c.find({ where: { org: 'o1' }, sortBy: 'at', descending: true, limit: 3 });
    t.same(ids(first), ['d2', 'd1', 'c']);
    // Inserted before the cursor (newer) and inside the tie group after it (older): only the latter shows.
    await c.put(row('e', { at: at(6) }));
    await c.put(row('b25', { at: at(2) }));
    await c.delete('c');
    const next = await c.find({
      where: { org: 'o1' },
      sortBy: 'at',
      descending: true,
      limit: 10,
      after: { sortValue: first[2]!.at, id: first[2]!.id },
    });
    t.same(
      ids(next),
      ['b3', 'b25', 'b2', 'b1', 'a'],
      'no repeats, nothing skipped, the deleted cursor document still works',
    );
    t.same(
      ids(await c.find({ descending: true, limit: 2, after: { sortValue: 'ignored', id: 'b3' } })),
      ['b25', 'b2'],
      'sorted by id: only the id counts',
    );
    t.same(
      ids(await c.find({ where: { org: 'o1' }, sortBy: 'at', after: { sortValue: 5, id: 'a' } })),
      [],
      'a cursor of another type pages nothing',
    );
  });

  t.test('count applies the same filters as find', async (t) => {
    const store = await open();
    const c = store.collection<Row>('count');
    t.equal(await c.count(), 0);
    await t.rejects(c.count({ text: { query: 'x', fields: [] } }), RangeError, 'even on an empty collection');
    await t.rejects(c.find({ text: { query: 'x', fields: [] } }), RangeError);
    await fill(c, [
      row('a', { org: 'o1', status: 'queued', label: 'Alpha' }),
      row('b', { org: 'o1', status: 'failed', label: 'beta' }),
      row('c', { org: 'o1', status: 'failed', label: 'ALPHABET' }),
      row('d', { org: 'o2', status: 'failed', label: 'alpha' }),
    ]);
    t.equal(await c.count(), 4);
    t.equal(await c.count({ where: { org: 'o1' } }), 3);
    t.equal(await c.count({ where: { org: 'o1', status: { in: ['failed'] } } }), 2);
    t.equal(await c.count({ where: { org: 'o1' }, text: { query: 'alpha', fields: ['label'] } }), 2);
    t.equal(await c.count({ where: { org: 'o9' } }), 0);
    await c.delete('a');
    t.equal(await c.count({ where: { org: 'o1' } }), 2);
  });

  t.test('collections are separate and indexes can be declared', async (t) => {
    const store = await open();
    await store.ensureIndexes('one', [
      {
        keys: [
          ['org', 1],
          ['at', -1],
          ['id', -1],
        ],
      },
      { keys: [['meta.owner', 1]] },
    ]);
    await store.ensureIndexes('one', [
      {
        keys: [
          ['org', 1],
          ['at', -1],
          ['id', -1],
        ],
      },
    ]);
    const one = store.collection<Row>('one');
    const two = store.collection<Row>('two');
    await one.put(row('a'));
    t.equal(await two.get('a'), undefined);
    t.equal(await two.count(), 0);
    t.same(ids(await one.find({ where: { org: 'o1' }, sortBy: 'at', descending: true })), ['a']);
  });

  t.test('checkpoints start at 0 and keep the last value', async (t) => {
    const store = await open();
    t.equal(await store.checkpoint('p'), 0);
    await store.setCheckpoint('p', 42);
    t.equal(await store.checkpoint('p'), 42);
    await store.setCheckpoint('p', 43);
    t.equal(await store.checkpoint('p'), 43);
    t.equal(await store.checkpoint('q'), 0, 'per projection');
  });

  t.test('checkpoints only move forward: a lower position leaves the stored one', async (t) => {
    const store = await open();
    await store.setCheckpoint('p', 5);
    await store.setCheckpoint('p', 3);
    t.equal(await store.checkpoint('p'), 5);
    await store.setCheckpoint('p', 5);
    t.equal(await store.checkpoint('p'), 5);
    await store.setCheckpoint('p', 6);
    t.equal(await store.checkpoint('p'), 6);
  });
}
