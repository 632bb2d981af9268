/**
 * The one security policy of the service's HTML pages (/app, /viewer, /docs), built here for each
 * page by name, so the pages on this origin, which share the signed-in web app's cookie, cannot
 * differ without a reason (the plan PDF is not a page: it carries nosniff and no-store only):
 * - Content-Security-Policy: everything from this origin only; scripts only from files (no
 *   inline script, no eval); inline styles allowed (React's `style` attributes, Swagger UI); images
 *   also from data: and blob: URLs (the viewer's and Swagger UI's icons); workers from blob:
 *   (three.js); no plugins; no `<base>`; form targets only this origin;
 * - framing: a page embeds only where it must. The web app embeds the 3D viewer in an iframe on
 *   its playground and job pages, so /viewer may be framed by this origin (`frame-ancestors
 *   'self'`, `X-Frame-Options: SAMEORIGIN`); every other page by nobody (`'none'`, `DENY`);
 * - `X-Content-Type-Options: nosniff`;
 * - `Referrer-Policy: same-origin`: a page's URL (the viewer's carries a link signature, an
 *   invitation page its token) is never sent to another site. Not `no-referrer`: browsers then
 *   send `Origin: null` on same-origin POSTs, which the web app's own-origin check refuses.
 */
import type { Response } from 'express';

/** Who may show a page in a frame: nobody, or pages of this origin. */
export type Framing = 'none' | 'same-origin';

/** The service's HTML pages: the web app (/app/…), the 3D viewer (/viewer/{job}), the API reference (/docs). */
export type Page = 'web-app' | 'viewer' | 'docs';

/** Who may frame each page: the web app embeds the viewer; nothing embeds the others. */
export const PAGE_FRAMING: Readonly<Record<Page, Framing>> = {
  'web-app': 'none',
  viewer: 'same-origin',
  docs: 'none',
};

/** The Content-Security-Policy of every page, with its `frame-ancestors` for `framing`. */
export function contentSecurityPolicy(framing: Framing): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    `frame-ancestors ${framing === 'none' ? "'none'" : "'self'"}`,
  ].join('; ');
}

/** The headers of an HTML page's policy (name → value). */
export type PageSecurityHeaders = Record<
  'Content-Security-Policy' | 'X-Frame-Options' | 'X-Content-Type-Options' | 'Referrer-Policy',
  string
>;

/** The headers of `page`: the policy with the page's framing. */
export function pageSecurityHeaders(page: Page): PageSecurityHeaders {
  const framing = PAGE_FRAMING[page];
  return {
    'Content-Security-Policy': contentSecurityPolicy(framing),
    'X-Frame-Options': framing === 'none' ? 'DENY' : 'SAMEORIGIN',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'same-origin',
  };
}

/** Sets the policy of `page` on `res` (pageSecurityHeaders). */
export function setPageSecurity(res: Response, page: Page): void {
  for (const [name, value] of Object.entries(pageSecurityHeaders(page))) res.setHeader(name, value);
}

/** Sets `Cache-Control: no-store`: answers read with a session, signed plans and PDFs are kept by no cache. */
export function setNoStore(res: Response): void {
  res.setHeader('Cache-Control', 'no-store');
}
