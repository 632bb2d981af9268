/**
 * The SQLite read store answers every query as the port's reference semantics do
 * (domain/ports/read-query.ts, which the memory store runs): random documents with fields of
 * mixed types (numbers, strings with multi-byte and astral characters, null, absent, booleans),
 * random filters, text searches, sorts, limits and keyset cursors; the ids must come back equal
 * and in the same order, and counts must agree.
 */
import t from 'tap';
import fc from 'fast-check';
import { SqliteReadStore } from '../../adapters/sqlite/read-store.js';
import { runQuery, matchesFilter } from '../../domain/ports/read-query.js';
import type { FindQuery, ReadFilter } from '../../domain/ports/read-store.js';

interface Row {
  id: string;
  org: string;
  n?: number | string | null;
  label?: string | null;
  flag?: boolean | number;
  meta: { owner?: string | null };
  position: number;
}

// Characters whose UTF-16 order differs from their code-point order (U+FB00 vs an emoji), case pairs, accents.
const text = fc
  .array(fc.constantFrom('a', 'B', 'b', 'é', 'É', 'ﬀ', '😀', 'z', ' ', '%', '_'), { maxLength: 4 })
  .map((cs) => cs.join(''));
// Decimals as documents hold them (SQLite's JSON number parser may differ in the last bit on doubles near 1e-300).
const decimal = fc.integer({ min: -3000, max: 3000 }).map((n) => n / 1000);
const value = fc.oneof(fc.integer({ min: -3, max: 3 }), decimal, text, fc.constant(null));
const optional = <T>(arb: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> => fc.option(arb, { nil: undefined });

const row = fc.record({
  org: fc.constantFrom('o1', 'o2'),
  n: optional(value),
  label: optional(fc.oneof(text, fc.constant(null))),
  flag: optional(fc.oneof(fc.boolean(), fc.constantFrom(0, 1))),
  owner: optional(fc.oneof(text, fc.constant(null))),
});

const condition = fc.oneof(
  value.map((v) => v as unknown),
  fc.record({ eq: value }, { requiredKeys: [] }),
  fc.record({ in: fc.array(fc.oneof(value, fc.boolean()), { maxLength: 3 }) }),
  fc.record({ gt: fc.oneof(fc.integer({ min: -3, max: 3 }), text) }),
  fc.record(
    { gte: fc.oneof(fc.integer({ min: -3, max: 3 }), text), lt: fc.oneof(fc.integer({ min: -3, max: 3 }), text) },
    { requiredKeys: [] },
  ),
  fc.record({ lte: fc.oneof(decimal, text) }),
  fc.record({ exists: fc.boolean() }),
);

const query = fc.record(
  {
    where: fc.record(
      {
        org: fc.constantFrom('o1', 'o2'),
        n: condition,
        label: condition,
        flag: fc.oneof(
          fc.boolean(),
          fc.record({ in: fc.array(fc.oneof(fc.boolean(), fc.constantFrom(0, 1)), { maxLength: 2 }) }),
        ),
        'meta.owner': condition,
      },
      { requiredKeys: [] },
    ),
    text: fc.record({
      query: fc.constantFrom('', 'A', 'b', 'É', 'é', 'ﬀ', '😀', '%', '_'),
      fields: fc.subarray(['label', 'meta.owner', 'n'] as const, { minLength: 1 }),
    }),
    // Booleans sort among numbers in SQLite (a documented deviation): sort only on fields without them.
    sortBy: fc.constantFrom('id', 'n', 'label', 'meta.owner', 'org'),
    descending: fc.boolean(),
    limit: fc.integer({ min: 1, max: 8 }),
    afterIndex: fc.nat(),
  },
  { requiredKeys: ['sortBy', 'descending'] },
);

t.test('SQLite queries match the port semantics on random documents and queries', async (t) => {
  let run = 0;
  await fc.assert(
    fc.asyncProperty(fc.array(row, { maxLength: 14 }), query, async (rows, q) => {
      const store = new SqliteReadStore(':memory:', 'v');
      try {
        const c = store.collection<Row>(`c${(run += 1)}`);
        const docs: Row[] = rows.map((r, i) => {
          const doc: Row = {
            id: `d${String(i).padStart(2, '0')}${r.org === 'o1' ? 'é' : '😀'}`,
            org: r.org,
            meta: {},
            position: i + 1,
          };
          if (r.n !== undefined) doc.n = r.n;
          if (r.label !== undefined) doc.label = r.label;
          if (r.flag !== undefined) doc.flag = r.flag;
          if (r.owner !== undefined) doc.meta.owner = r.owner;
          return doc;
        });
        for (const d of docs) await c.put(d);
        const filter = {
          ...(q.where ? { where: q.where } : {}),
          ...(q.text ? { text: q.text } : {}),
        } as ReadFilter<Row>;
        const find: FindQuery<Row> = {
          ...filter,
          sortBy: q.sortBy,
          descending: q.descending,
          ...(q.limit ? { limit: q.limit } : {}),
        };
        // A cursor taken from one of the documents of the full, unlimited order.
        const ordered = runQuery(docs, { ...find, limit: undefined });
        if (q.afterIndex !== undefined && ordered.length > 0) {
          const at = ordered[q.afterIndex % ordered.length]!;
          const sortValue =
            q.sortBy === 'id'
              ? at.id
              : (q.sortBy.split('.').reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], at) ??
                null);
          if (typeof sortValue === 'string' || typeof sortValue === 'number') find.after = { sortValue, id: at.id };
        }
        const expected = runQuery(docs, find).map((d) => d.id);
        const got = (await c.find(find)).map((d) => d.id);
        if (JSON.stringify(got) !== JSON.stringify(expected))
          throw new Error(
            `find ${JSON.stringify(find)}: got ${JSON.stringify(got)}, expected ${JSON.stringify(expected)}`,
          );
        const count = docs.filter((d) => matchesFilter(d, filter)).length;
        const counted = await c.count(filter);
        if (counted !== count) throw new Error(`count ${JSON.stringify(filter)}: got ${counted}, expected ${count}`);
      } finally {
        await store.close();
      }
    }),
    { numRuns: 400 },
  );
  t.pass('400 random collections and queries agreed');
});
