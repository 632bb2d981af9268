/**
 * A console list (API keys, members, pending invitations, webhook endpoints and their
 * deliveries): a section named by its heading, the error banner, then "Loading…", the empty text
 * or a table named by the same heading, with one column header per entry of `columns`.
 */
import type { ReactNode } from 'react';
import { ErrorBanner } from './error-banner.js';

/**
 * Lists `rows` under the heading `title` (an `<h2>`, or `<h3>` with `level={3}`, whose `id`
 * names both the section and the table). `rows` null means still loading: "Loading…" shows
 * unless `error` is set (the banner then says why). With `empty`, no rows show that text instead
 * of a table; without it an empty table shows. `row` renders one `<tr>` (with its key);
 * `children` come after the table (inside the section).
 */
export function ListSection<T>({
  id,
  title,
  level = 2,
  className,
  error,
  rows,
  empty,
  columns,
  row,
  children,
}: {
  id: string;
  title: ReactNode;
  level?: 2 | 3;
  className?: string;
  error: unknown;
  rows: readonly T[] | null;
  empty?: ReactNode;
  columns: readonly string[];
  row: (r: T) => ReactNode;
  children?: ReactNode;
}) {
  const Heading = level === 3 ? 'h3' : 'h2';
  return (
    <section aria-labelledby={id} className={className}>
      <Heading id={id}>{title}</Heading>
      <ErrorBanner error={error} />
      {rows === null ? (
        error ? null : (
          <p role="status">Loading…</p>
        )
      ) : rows.length === 0 && empty !== undefined ? (
        <p>{empty}</p>
      ) : (
        <div className="table-wrap">
          <table aria-labelledby={id}>
            <thead>
              <tr>
                {columns.map((c) => (
                  <th key={c} scope="col">
                    {c}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>{rows.map(row)}</tbody>
          </table>
        </div>
      )}
      {children}
    </section>
  );
}
