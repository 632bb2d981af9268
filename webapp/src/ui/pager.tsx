/**
 * Cursor paging (spec: lists answer `next_cursor`): the cursors seen so far, so Previous goes
 * back through them, and the Previous / Page n / Next bar. Used by the saved-data lists and the
 * jobs list.
 */
import { useState } from 'react';

/** The cursor of the page shown (null: the first page), its number, and how to move. */
export interface CursorPages {
  cursor: string | null;
  number: number;
  back: () => void;
  forward: (next: string) => void;
  reset: () => void;
}

/** State of cursor paging, starting on the first page. */
export function useCursorPages(): CursorPages {
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  return {
    cursor: cursors[cursors.length - 1] ?? null,
    number: cursors.length,
    back: () => setCursors((c) => (c.length > 1 ? c.slice(0, -1) : c)),
    forward: (next) => setCursors((c) => [...c, next]),
    reset: () => setCursors([null]),
  };
}

/** The Previous / Page n / Next bar for `pages`; Next is off without a `nextCursor`. */
export function Pager({ pages, nextCursor }: { pages: CursorPages; nextCursor: string | null | undefined }) {
  return (
    <div className="pager">
      <button type="button" className="secondary" disabled={pages.number <= 1} onClick={pages.back}>
        Previous page
      </button>
      <span>Page {pages.number}</span>
      <button
        type="button"
        className="secondary"
        disabled={!nextCursor}
        onClick={() => nextCursor && pages.forward(nextCursor)}
      >
        Next page
      </button>
    </div>
  );
}
