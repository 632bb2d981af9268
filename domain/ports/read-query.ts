/**
 * The meaning of the read port's queries (domain/ports/read-store.ts), as plain functions over
 * documents: the memory adapter runs them, routes may test a document against a filter, and the
 * MongoDB adapter translates the same queries into what the database does alike (BSON order of
 * scalar types, missing = null, ranges only within one type, code-point order of strings).
 */
import type { FindQuery, KeysetCursor, ReadFilter, Scalar } from './read-store.js';

/** The value at a field path (`a` or `a.b`); missing and undefined read as null. */
export function fieldValue(doc: object, path: string): unknown {
  let value: unknown = doc;
  for (const key of path.split('.')) {
    if (typeof value !== 'object' || value === null) return null;
    value = (value as Record<string, unknown>)[key];
  }
  return value === undefined ? null : value;
}

// Sort rank of a type, as in BSON's comparison order (null < numbers < strings < objects < arrays < booleans).
function typeRank(v: unknown): number {
  if (v === null || v === undefined) return 0;
  if (typeof v === 'number') return 1;
  if (typeof v === 'string') return 2;
  if (typeof v === 'boolean') return 5;
  return Array.isArray(v) ? 4 : 3;
}

/** Compares two strings by Unicode code point (the order of their UTF-8 bytes), not UTF-16 unit. */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i += 1) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    // Surrogates (U+D800–DFFF) encode code points above U+FFFF: move them after U+E000–FFFF.
    if (x >= 0xd800) x += x < 0xe000 ? 0x2000 : -0x800;
    if (y >= 0xd800) y += y < 0xe000 ? 0x2000 : -0x800;
    return x - y;
  }
  return a.length - b.length;
}

/** Total order of values as the port sorts them: negative, 0 or positive. */
export function compareValues(a: unknown, b: unknown): number {
  const ra = typeRank(a);
  const rb = typeRank(b);
  if (ra !== rb) return ra - rb;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'string' && typeof b === 'string') return compareCodePoints(a, b);
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  return 0;
}

/** True when `a` and `b` are comparable by a range condition (same scalar type, not null). */
const sameType = (a: unknown, b: unknown): boolean =>
  (typeof a === 'string' || typeof a === 'number') && typeof a === typeof b;

const isCondition = (c: unknown): c is Record<string, unknown> => typeof c === 'object' && c !== null;

function holds(value: unknown, condition: unknown): boolean {
  if (!isCondition(condition)) return value === condition;
  const c = condition as {
    eq?: Scalar;
    in?: readonly Scalar[];
    gt?: Scalar;
    gte?: Scalar;
    lt?: Scalar;
    lte?: Scalar;
    exists?: boolean;
  };
  if (c.eq !== undefined && value !== c.eq) return false;
  if (c.in !== undefined && !c.in.includes(value as Scalar)) return false;
  if (c.gt !== undefined && !(sameType(value, c.gt) && compareValues(value, c.gt) > 0)) return false;
  if (c.gte !== undefined && !(sameType(value, c.gte) && compareValues(value, c.gte) >= 0)) return false;
  if (c.lt !== undefined && !(sameType(value, c.lt) && compareValues(value, c.lt) < 0)) return false;
  if (c.lte !== undefined && !(sameType(value, c.lte) && compareValues(value, c.lte) <= 0)) return false;
  if (c.exists !== undefined && (value !== null) !== c.exists) return false;
  return true;
}

/** Throws RangeError when a text search names no field. */
export function checkText(text: ReadFilter<object>['text']): void {
  if (text !== undefined && text.fields.length === 0) throw new RangeError('text.fields must name at least one field');
}

/** Throws RangeError unless `limit` is absent or a positive integer. */
export function checkLimit(limit: number | undefined): void {
  if (limit !== undefined && !(Number.isInteger(limit) && limit >= 1))
    throw new RangeError(`limit must be a positive integer, got ${limit}`);
}

/** True when `doc` passes every `where` entry and the text search (port semantics). Throws RangeError for empty `text.fields`. */
export function matchesFilter<T extends object>(doc: T, filter: ReadFilter<T>): boolean {
  checkText(filter.text as ReadFilter<object>['text']);
  for (const [path, condition] of Object.entries(filter.where ?? {})) {
    if (condition === undefined) continue;
    if (!holds(fieldValue(doc, path), condition)) return false;
  }
  const text = filter.text;
  if (text === undefined) return true;
  const needle = text.query.toLowerCase();
  return text.fields.some((path) => {
    const v = fieldValue(doc, path);
    return typeof v === 'string' && v.toLowerCase().includes(needle);
  });
}

/** Order of two documents under `query` (sort field, then id; `descending` reverses both). */
export function compareDocuments<T extends { id: string }>(
  a: T,
  b: T,
  query: Pick<FindQuery<T>, 'sortBy' | 'descending'>,
): number {
  const sign = query.descending ? -1 : 1;
  const by = query.sortBy ?? 'id';
  const primary = by === 'id' ? 0 : compareValues(fieldValue(a, by), fieldValue(b, by));
  return sign * (primary !== 0 ? primary : compareCodePoints(a.id, b.id));
}

/**
 * True when `doc` comes after the keyset cursor `after` under `query`'s order. With `sortBy`
 * `id` (or none) only `after.id` counts; a sort value of another type than `after.sortValue`
 * (or null) is never after it.
 */
export function isAfter<T extends { id: string }>(
  doc: T,
  after: KeysetCursor,
  query: Pick<FindQuery<T>, 'sortBy' | 'descending'>,
): boolean {
  const sign = query.descending ? -1 : 1;
  const byId = sign * compareCodePoints(doc.id, after.id) > 0;
  const by = query.sortBy ?? 'id';
  if (by === 'id') return byId;
  const value = fieldValue(doc, by);
  if (!sameType(value, after.sortValue)) return false;
  const c = sign * compareValues(value, after.sortValue);
  return c > 0 || (c === 0 && byId);
}

/**
 * Runs `query` over `docs` (port semantics): filter, cursor, order, limit. Returns the same
 * objects, not copies. Throws RangeError for a bad `limit` or empty `text.fields`.
 */
export function runQuery<T extends { id: string }>(docs: Iterable<T>, query: FindQuery<T> = {}): T[] {
  checkLimit(query.limit);
  checkText(query.text as ReadFilter<object>['text']);
  const after = query.after;
  const out = [...docs].filter((d) => matchesFilter(d, query) && (after === undefined || isAfter(d, after, query)));
  out.sort((a, b) => compareDocuments(a, b, query));
  return query.limit === undefined ? out : out.slice(0, query.limit);
}
