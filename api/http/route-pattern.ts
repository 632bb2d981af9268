/**
 * The route pattern a request matched (`/v1/jobs/:id`), never its URL: labels of the HTTP
 * metrics and the `route` of the access log. Ids and query strings (PDF links carry a signature)
 * stay out of both.
 */
import type { Request } from 'express';

/** Route label of a request no route matched (unknown path or method, or refused before routing). */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * The matched route's path under its router's mount path, e.g. `/v1/jobs/:id`; UNMATCHED_ROUTE
 * when none matched. Route modules mount their routers at `/` (api/http/routes/index.ts), so this is
 * the full pattern.
 */
export function routePattern(req: Request): string {
  // Express route paths are strings, regular expressions or lists of them.
  const route = (req as { route?: { path?: string | RegExp | (string | RegExp)[] } }).route;
  if (!route || route.path === undefined) return UNMATCHED_ROUTE;
  return `${req.baseUrl ?? ''}${String(route.path)}`;
}
