/**
 * The query of a saved-data list (spec Endpoints, "Saved-data lists ... take query parameters
 * `limit`, `cursor`, `q`"). Pure; tested in test/webapp/list-query.test.ts.
 */

/** One page request: `limit` records (1–100), from `cursor` (null = first page), matching `q` ('' = all). */
export interface ListQuery {
  limit: number;
  cursor: string | null;
  q: string;
}

/** `path` with the list query appended (`/v1/vehicles?limit=20&q=box`); empty parts are left out. */
export function listUrl(path: string, query: ListQuery): string {
  const params = new URLSearchParams();
  params.set('limit', String(query.limit));
  if (query.cursor) params.set('cursor', query.cursor);
  const q = query.q.trim();
  if (q) params.set('q', q);
  return `${path}?${params.toString()}`;
}

/** A list page as the API answers it: `data` and the cursor of the next page (null on the last). */
export interface ListPage<T> {
  data: T[];
  next_cursor: string | null;
}
