/**
 * Pure translation of the read port's queries (domain/ports/read-store.ts) into MongoDB query
 * documents, kept apart from the driver calls so it can be tested without a server. The port's
 * `id` is the collection's `_id`; every other field path is used as it is (`fields.name`).
 * Semantics match domain/ports/read-query.ts: missing = null, ranges within one BSON type
 * (MongoDB's type bracketing), strings in binary (code point) order, case-insensitive text as an
 * escaped regex with the `i` option.
 */
import type { Document } from 'mongodb';
import type {
  FieldCondition,
  FindQuery,
  IndexSpec,
  KeysetCursor,
  ReadFilter,
  Scalar,
} from '../../domain/ports/read-store.js';

/** The MongoDB field of a port field path: `id` → `_id`, others unchanged. */
export const mongoField = (path: string): string => (path === 'id' ? '_id' : path);

/**
 * `text` as a PCRE pattern that matches it literally: regex metacharacters are backslash-escaped
 * and NUL (which MongoDB refuses inside a pattern) is written `\x00`.
 */
export function escapeRegex(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&').replace(/\0/g, '\\x00');
}

const isCondition = (c: unknown): c is FieldCondition<Scalar> => typeof c === 'object' && c !== null;

/** The MongoDB form of one field's condition; undefined when it constrains nothing. */
function fieldFilter(condition: unknown): unknown {
  if (!isCondition(condition)) return condition;
  const c = condition;
  const out: Document = {};
  if (c.eq !== undefined) out['$eq'] = c.eq;
  if (c.in !== undefined) out['$in'] = [...c.in];
  if (c.gt !== undefined) out['$gt'] = c.gt;
  if (c.gte !== undefined) out['$gte'] = c.gte;
  if (c.lt !== undefined) out['$lt'] = c.lt;
  if (c.lte !== undefined) out['$lte'] = c.lte;
  // `$ne: null` = present and not null; its negation = null or absent (both as the port means).
  if (c.exists === true) out['$ne'] = null;
  if (c.exists === false) out['$not'] = { $ne: null };
  return Object.keys(out).length === 0 ? undefined : out;
}

/** The `$and` clauses that keep only the documents after `after` in the query's order. */
function afterClauses(after: KeysetCursor, sortBy: string, descending: boolean): Document[] {
  const beyond = descending ? '$lt' : '$gt';
  if (sortBy === 'id') return [{ _id: { [beyond]: after.id } }];
  const field = mongoField(sortBy);
  // The first clause bounds the index range; the second breaks ties on equal sort values by id.
  return [
    { [field]: { [descending ? '$lte' : '$gte']: after.sortValue } },
    { $or: [{ [field]: { [beyond]: after.sortValue } }, { _id: { [beyond]: after.id } }] },
  ];
}

/**
 * The MongoDB filter of a port filter (and of a find's cursor): `where` entries as top-level
 * fields, the text search and the cursor as `$and` clauses (absent when none). Throws RangeError
 * when `text.fields` is empty.
 */
export function toMongoFilter<T>(
  filter: ReadFilter<T> & Pick<FindQuery<T>, 'after' | 'sortBy' | 'descending'>,
): Document {
  const out: Document = {};
  for (const [path, condition] of Object.entries(filter.where ?? {})) {
    const translated = fieldFilter(condition);
    if (translated !== undefined) out[mongoField(path)] = translated;
  }
  const and: Document[] = [];
  if (filter.text !== undefined) {
    if (filter.text.fields.length === 0) throw new RangeError('text.fields must name at least one field');
    const pattern = escapeRegex(filter.text.query);
    and.push({ $or: filter.text.fields.map((f) => ({ [mongoField(f)]: { $regex: pattern, $options: 'i' } })) });
  }
  if (filter.after !== undefined)
    and.push(...afterClauses(filter.after, filter.sortBy ?? 'id', filter.descending === true));
  if (and.length > 0) out['$and'] = and;
  return out;
}

/** The sort document of a find: the sort field, then `_id`, in one direction. */
export function toMongoSort<T>(query: Pick<FindQuery<T>, 'sortBy' | 'descending'>): Record<string, 1 | -1> {
  const dir = query.descending ? -1 : 1;
  const by = query.sortBy ?? 'id';
  return by === 'id' ? { _id: dir } : { [mongoField(by)]: dir, _id: dir };
}

/** The `createIndexes` description of an index spec (key order kept; names left to the server). */
export function toMongoIndex(spec: IndexSpec): { key: Record<string, 1 | -1> } {
  const key: Record<string, 1 | -1> = {};
  for (const [field, dir] of spec.keys) key[mongoField(field)] = dir;
  return { key };
}

/**
 * The filter of a guarded `put` (replaceOne with upsert): a document with a numeric `position`
 * replaces only a stored one whose position is lower or absent; one without replaces any.
 */
export function putFilter(doc: { id: string; position?: unknown }): Document {
  return typeof doc.position === 'number'
    ? { _id: doc.id, position: { $not: { $gte: doc.position } } }
    : { _id: doc.id };
}
