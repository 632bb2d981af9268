/**
 * The main landmark of a page: `<main id="main">` (the skip link's
 * target) with the page's one `<h1>`, its title also set as the document title.
 */
import { useEffect, type ReactNode } from 'react';

/** A page: its heading `title` (also the tab title, "<title> · Load planner") and content. */
export function Page({ title, children, actions }: { title: string; children: ReactNode; actions?: ReactNode }) {
  useEffect(() => {
    document.title = `${title} · Load planner`;
  }, [title]);
  return (
    <main id="main" tabIndex={-1}>
      <div className="page-head">
        <h1>{title}</h1>
        {actions ? <div className="page-actions">{actions}</div> : null}
      </div>
      {children}
    </main>
  );
}
