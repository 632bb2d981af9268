/**
 * A saved-data list with a search box and paging (spec
 * "Saved-data lists": `limit`, `cursor`, `q` in, `data` and `next_cursor` out). The rows are
 * rendered by the page (usually a table); Previous goes back through the cursors seen.
 */
import { useEffect, useState, type ReactNode } from 'react';
import { call } from '../api.js';
import { ErrorBanner } from './error-banner.js';
import { listUrl, type ListPage } from './list-query.js';
import { Pager, useCursorPages } from './pager.js';

/**
 * Lists `path` (`/v1/vehicles`) `limit` at a time; `searchLabel` labels the search box;
 * `reloadKey` changing reloads the current page (after a create, edit or delete).
 */
export function PagedList<T>({
  path,
  searchLabel,
  limit = 20,
  reloadKey = 0,
  children,
}: {
  path: string;
  searchLabel: string;
  limit?: number;
  reloadKey?: number;
  children: (rows: T[]) => ReactNode;
}) {
  const [q, setQ] = useState('');
  const [typed, setTyped] = useState('');
  const pages = useCursorPages();
  const [page, setPage] = useState<ListPage<T> | null>(null);
  const [error, setError] = useState<unknown>(null);
  const cursor = pages.cursor;

  useEffect(() => {
    let live = true;
    call<ListPage<T>>('GET', listUrl(path, { limit, cursor, q }))
      .then((p) => {
        if (!live) return;
        setPage(p);
        setError(null);
      })
      .catch((err: unknown) => live && setError(err));
    return () => {
      live = false;
    };
  }, [path, limit, cursor, q, reloadKey]);

  return (
    <section className="paged-list" aria-label={searchLabel.replace(/^Search /, '')}>
      <form
        role="search"
        className="search"
        onSubmit={(e) => {
          e.preventDefault();
          setQ(typed);
          pages.reset();
        }}
      >
        <label htmlFor={`${path}-q`}>{searchLabel}</label>
        <input id={`${path}-q`} type="search" value={typed} onChange={(e) => setTyped(e.target.value)} />
        <button type="submit">Search</button>
      </form>
      <ErrorBanner error={error} />
      {page === null ? (
        error ? null : (
          <p role="status">Loading…</p>
        )
      ) : page.data.length === 0 ? (
        <p>{q ? `Nothing matches “${q}”.` : 'Nothing saved yet.'}</p>
      ) : (
        children(page.data)
      )}
      <Pager pages={pages} nextCursor={page?.next_cursor} />
    </section>
  );
}
