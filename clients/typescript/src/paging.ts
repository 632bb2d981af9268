/**
 * Cursor paging of the lists (spec Endpoints: `{data, next_cursor}`, newest first, `next_cursor`
 * "" on the last page): an async iterator over every record of every page.
 */

/** One page of a list. */
export interface Page<T> {
  data: T[];
  /** Pass as `cursor` for the next page; "" on the last. */
  next_cursor: string;
}

/**
 * Every record of the list `fetchPage` reads, page after page: `fetchPage(cursor)` with
 * undefined first, then each `next_cursor` until it is "". Pages are fetched as the caller
 * iterates (stop early to read fewer).
 */
export async function* eachRecord<T>(
  fetchPage: (cursor: string | undefined) => Promise<Page<T>>,
): AsyncGenerator<T, void, undefined> {
  let cursor: string | undefined;
  do {
    const page = await fetchPage(cursor);
    yield* page.data;
    cursor = page.next_cursor;
  } while (cursor);
}
