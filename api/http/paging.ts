/**
 * Saved-data and job lists (spec: `limit`, `cursor`, `q`, `created_by`; answer `{data,
 * next_cursor}`): query parsing with the spec's error envelope, and newest-first cursor paging.
 * The cursor is opaque to clients: base64url of the last item's (created_at, id). Pages of read
 * models are read with a keyset query in the read store (`listPage`), never by loading the
 * whole collection.
 */
import type { FieldPath, ReadCollection, ReadDocument, ReadFilter } from '../../domain/ports/read-store.js';
import { ApiError } from './errors.js';
import type { Caller } from './auth/auth.js';

/** Page size when `limit` is not given. */
export const DEFAULT_LIMIT = 20;
/** Largest accepted `limit`. */
export const MAX_LIMIT = 100;

/** The list parameters of a request, checked. */
export interface ListQuery {
  limit: number;
  /** Position after which the page starts, or null for the first page. */
  after: { createdAt: string; id: string } | null;
  /** Case-insensitive text to find (in names, labels, references…), or null. */
  q: string | null;
  /** Member id whose records to list (`me` resolved to the caller's member), or null for all. */
  createdBy: string | null;
}

type Query = Record<string, unknown>;
type Detail = { path: string; code: string; message: string };

const one = (query: Query, name: string): string | undefined => {
  const v = query[name];
  return typeof v === 'string' ? v : Array.isArray(v) ? String(v[0]) : undefined;
};

/** The cursor of a page ending at `item`: base64url of the JSON `[createdAt, id]`. */
export function encodeCursor(item: { createdAt: string; id: string }): string {
  return Buffer.from(JSON.stringify([item.createdAt, item.id])).toString('base64url');
}

function decodeCursor(raw: string): { createdAt: string; id: string } | null {
  try {
    const [createdAt, id] = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as unknown[];
    return typeof createdAt === 'string' && typeof id === 'string' ? { createdAt, id } : null;
  } catch {
    return null;
  }
}

/**
 * Parses `limit` (1–100, default 20), `cursor`, `q` (≤ 200 chars), `created_by` (`me` or
 * `usr_…`). `extra` collects further problems of the caller's own filters. Throws 422
 * validation_failed listing every problem.
 */
export function parseListQuery(query: Query, caller: Caller, extra: Detail[] = []): ListQuery {
  const details: Detail[] = [...extra];
  const rawLimit = one(query, 'limit');
  let limit = DEFAULT_LIMIT;
  if (rawLimit !== undefined) {
    if (!/^\d+$/.test(rawLimit) || Number(rawLimit) < 1 || Number(rawLimit) > MAX_LIMIT) {
      details.push({
        path: 'limit',
        code: 'out_of_range',
        message: `limit must be an integer from 1 to ${MAX_LIMIT}, got ${JSON.stringify(rawLimit)}`,
      });
    } else limit = Number(rawLimit);
  }
  const rawCursor = one(query, 'cursor');
  let after: ListQuery['after'] = null;
  if (rawCursor !== undefined && rawCursor !== '') {
    after = decodeCursor(rawCursor);
    if (!after)
      details.push({
        path: 'cursor',
        code: 'invalid_value',
        message: 'cursor is not one this service issued; pass next_cursor unchanged',
      });
  }
  const q = one(query, 'q') ?? null;
  if (q !== null && q.length > 200)
    details.push({ path: 'q', code: 'out_of_range', message: `q must be at most 200 characters, got ${q.length}` });
  const rawCreatedBy = one(query, 'created_by');
  let createdBy: string | null = null;
  if (rawCreatedBy !== undefined) {
    if (rawCreatedBy === 'me') createdBy = caller.memberId;
    else if (/^usr_[a-z0-9]+$/.test(rawCreatedBy)) createdBy = rawCreatedBy;
    else
      details.push({
        path: 'created_by',
        code: 'invalid_value',
        message: `created_by must be "me" or a usr_… id, got ${JSON.stringify(rawCreatedBy)}`,
      });
  }
  if (details.length > 0) throw new ApiError('validation_failed', 'the query is invalid', details);
  return { limit, after, q: q === '' ? null : q, createdBy };
}

/**
 * Pages a list held in memory (the preset catalog after the organization's vehicles): newest
 * first by (createdAt, id); the page after `query.after`, and the cursor of the next one (""
 * on the last page).
 */
export function page<T extends { createdAt: string; id: string }>(
  items: T[],
  query: Pick<ListQuery, 'limit' | 'after'>,
): { data: T[]; next_cursor: string } {
  const sorted = [...items].sort((a, b) =>
    a.createdAt === b.createdAt ? (a.id < b.id ? 1 : -1) : a.createdAt < b.createdAt ? 1 : -1,
  );
  const after = query.after;
  const start = after
    ? sorted.filter((x) => x.createdAt > after.createdAt || (x.createdAt === after.createdAt && x.id >= after.id))
        .length
    : 0;
  const data = sorted.slice(start, start + query.limit);
  const more = start + query.limit < sorted.length;
  return { data, next_cursor: more && data.length > 0 ? encodeCursor(data[data.length - 1]!) : '' };
}

/** True when `q` is null or occurs (case-insensitive) in one of `texts`. */
export function matchesText(q: string | null, ...texts: (string | null | undefined)[]): boolean {
  if (q === null) return true;
  const needle = q.toLowerCase();
  return texts.some((t) => t?.toLowerCase().includes(needle));
}

/**
 * One page of a read model, newest first by (createdAt, id): at most `query.limit` documents
 * `filter` selects after the cursor `query.after`, and the cursor of the next page ("" on the
 * last). One find of limit + 1 documents in the read store (the extra one says whether a next
 * page exists); same answers as `page` over the whole filtered collection.
 */
export async function listPage<T extends ReadDocument & { createdAt: string }>(
  collection: ReadCollection<T>,
  filter: ReadFilter<T>,
  query: Pick<ListQuery, 'limit' | 'after'>,
): Promise<{ data: T[]; next_cursor: string }> {
  const found = await collection.find({
    ...filter,
    sortBy: 'createdAt',
    descending: true,
    limit: query.limit + 1,
    ...(query.after ? { after: { sortValue: query.after.createdAt, id: query.after.id } } : {}),
  });
  const data = found.slice(0, query.limit);
  return { data, next_cursor: found.length > query.limit ? encodeCursor(data[data.length - 1]!) : '' };
}

/** The read-store text search of `q` over `fields` (nothing when `q` is null): case-insensitive substring. */
export function textSearch<T>(q: string | null, fields: readonly FieldPath<T>[]): Pick<ReadFilter<T>, 'text'> {
  return q === null ? {} : { text: { query: q, fields } };
}
