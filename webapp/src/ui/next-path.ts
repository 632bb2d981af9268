/**
 * Where to go after signing in: the `?next=` path when it is a page of the app, else /playground.
 * The answer is a router path (the router's basename `/app` is added by the router), always one
 * plain same-origin path: `next` is refused when it holds a backslash or a control character (raw
 * or percent-encoded), is not a path (`https://…`, `//evil`, `javascript:`), leaves the origin,
 * or, after the URL parser resolved `.`/`..` (also `%2e`) and the `/app` base is dropped, still
 * has an empty segment (`/app//evil.example` would become `//evil.example`), an encoded slash or
 * dot segment, or names the sign-in page, an invitation, the app's API or its assets.
 * Pure; tested in test/webapp/small-rules.test.ts and test/webapp/next-path.property.test.ts.
 */

/** Where a refused or missing `next` leads. */
export const DEFAULT_NEXT_PATH = '/playground';

/** The router's basename: the app's pages live under it. */
export const APP_BASE = '/app';

/** A base of no meaning, only to let the URL parser normalise a path; its origin must survive. */
const PROBE = new URL('https://next-path.invalid/');

/** Control characters, and their percent-encoded forms (the parser silently drops raw tabs and newlines). */
const CONTROL = /\p{Cc}|%[01][0-9a-f]|%7f/iu;

/** Page paths that are no destination after sign-in, as router paths. */
const NOT_A_DESTINATION = /^\/(?:sign-in|invitations|api|assets)(?:\/|$)/;

/** The page to open after sign-in: the router path of `next` when safe, else DEFAULT_NEXT_PATH. */
export function safeNextPath(next: string | null | undefined): string {
  if (!next || !next.startsWith('/') || next.startsWith('//')) return DEFAULT_NEXT_PATH;
  if (CONTROL.test(next) || next.includes('\\') || /%5c/i.test(next)) return DEFAULT_NEXT_PATH;
  let url: URL;
  try {
    url = new URL(next, PROBE);
  } catch {
    return DEFAULT_NEXT_PATH;
  }
  if (url.origin !== PROBE.origin || url.username || url.password) return DEFAULT_NEXT_PATH;
  let path = url.pathname;
  if (path === APP_BASE) path = '/';
  else if (path.startsWith(`${APP_BASE}/`)) path = path.slice(APP_BASE.length);
  // One plain path: no empty segments, no encoded slash or dot segment that a later decoding could turn into one.
  if (path.includes('//') || /%2f/i.test(path)) return DEFAULT_NEXT_PATH;
  const segments = path.split('/').slice(1);
  if (segments.some((s) => /^(?:\.|%2e){1,2}$/i.test(s))) return DEFAULT_NEXT_PATH;
  if (NOT_A_DESTINATION.test(path)) return DEFAULT_NEXT_PATH;
  return path + url.search + url.hash;
}
