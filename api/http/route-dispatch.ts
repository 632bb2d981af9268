/**
 * Routing by path prefix: the route modules' routers (api/http/routes/index.ts) declare full paths
 * (`/v1/jobs/:id`) and used to be mounted one after the other at `/`, so every request walked
 * every module's layers. `dispatchByPrefix` hands a request only to the routers that have a layer
 * whose fixed start matches the request's path, in the same order: the answers are the ones the
 * full walk gives (a router that cannot match a path passes it on untouched), at the cost of one
 * map lookup.
 *
 * Each layer's fixed start is the text of its path before the first parameter or pattern
 * character (`/v1/jobs/` of `/v1/jobs/:id`). A layer is filed under the first two segments of
 * its path (`/v1/jobs`) when they are fixed; a layer whose fixed start is shorter (`/plans/` of
 * `/plans/:file`) is tried by a prefix test; a layer without a string path (middleware mounted at
 * `/`, a regular expression) or a router that is not case-sensitive makes its router tried for
 * every request. A router reached by a key is handed the request only when one of its layers
 * matches the path by the router's own test (`/v1/jobs/job_1` skips the router of `/v1/jobs`):
 * a router that matches nothing would only pass the request on, a macrotask later.
 */
import type { NextFunction, Request, RequestHandler, Response, Router } from 'express';

/** The parts of an Express router layer this reads (router 2.x): its path and its own match test. */
interface LayerInternals {
  rawPath?: unknown;
  route?: { path?: unknown };
  /** The router's test of a request path: a match, or false (throws on a malformed parameter). */
  match?: (path: string) => unknown;
}

/** The parts of an Express router this reads: its options and its layers (router 2.x). */
interface RouterInternals {
  caseSensitive?: boolean;
  stack: LayerInternals[];
}

/** How a router is reached: by the key of its layers, by prefix tests, or always. */
interface Entry {
  router: Router;
  /** Fixed starts tested with startsWith, [''] for always; empty when only keys reach it. */
  prefixes: string[];
  /** For a router reached by its key: its layers, one of which must match the path. */
  layers?: readonly LayerInternals[];
}

/**
 * True when one of `layers` matches `path` as the router will test it (or the test cannot be
 * made, or throws: the router then answers the path itself, as it would have).
 */
function someLayerMatches(layers: readonly LayerInternals[], path: string): boolean {
  for (const layer of layers) {
    if (typeof layer.match !== 'function') return true;
    try {
      if (layer.match(path)) return true;
    } catch {
      return true;
    }
  }
  return false;
}

// path-to-regexp 8 syntax: parameters, wildcards, groups, escapes.
const PATTERN_CHARACTER = /[:*?+(){}[\]!\\]/;

/** The fixed start of a layer path: all of it when it has no parameter or pattern. */
function fixedStart(path: string): string {
  const at = path.search(PATTERN_CHARACTER);
  return at < 0 ? path : path.slice(0, at);
}

/**
 * The dispatch key of a request path or of a fixed layer path: its first two segments, without
 * a trailing slash (`/v1/jobs/job_1/result` → `/v1/jobs`, `/health/` → `/health`).
 */
export function dispatchKey(path: string): string {
  const second = path.indexOf('/', 1);
  const third = second < 0 ? -1 : path.indexOf('/', second + 1);
  const cut = third < 0 ? path : path.slice(0, third);
  return cut.length > 1 && cut.endsWith('/') ? cut.slice(0, -1) : cut;
}

/**
 * Where one layer with string path `path` can match: under one key, when the key's segments are
 * fixed and every path the layer matches has that key; else a prefix to test. `end` is false
 * for middleware (it also matches paths below its own).
 */
function layerReach(path: string, end: boolean): { key: string } | { prefix: string } {
  const fixed = fixedStart(path);
  const whole = fixed === path;
  const second = fixed.indexOf('/', 1);
  const hasThirdSlash = second >= 0 && fixed.indexOf('/', second + 1) >= 0;
  // Two fixed segments: a route on them, or middleware mounted at least two segments deep.
  if (hasThirdSlash || (whole && (end || second >= 0))) return { key: dispatchKey(fixed) };
  return { prefix: fixed };
}

/**
 * A middleware that runs `routers` in order like `app.use(router)` each, skipping the ones that
 * cannot match the request's path. A router's error goes to `next(err)`; a request no router
 * answers goes to `next()`. Like an Express router it lists what it runs in `stack` (one layer
 * `{handle: router}` per router, as `app.use(router)` makes), so whatever lists the app's routes
 * from its layers (the OpenAPI tests) still finds them.
 */
export function dispatchByPrefix(routers: readonly Router[]): RequestHandler & { stack: { handle: Router }[] } {
  const byKey = new Map<string, Set<number>>();
  const entries: Entry[] = routers.map((router, index) => {
    const internals = router as unknown as RouterInternals;
    const prefixes = new Set<string>();
    for (const layer of internals.stack) {
      const path = layer.route ? layer.route.path : layer.rawPath;
      if (internals.caseSensitive !== true || typeof path !== 'string') {
        prefixes.add('');
        continue;
      }
      const reach = layerReach(path, layer.route !== undefined);
      if ('key' in reach) {
        const set = byKey.get(reach.key) ?? new Set<number>();
        set.add(index);
        byKey.set(reach.key, set);
      } else prefixes.add(reach.prefix);
    }
    return { router, prefixes: prefixes.has('') ? [''] : [...prefixes] };
  });
  // Per key: the routers filed under it (tried without a test) and every router reached by
  // prefixes, in module order; any other path tries the routers reached by prefixes only.
  const tested = entries.filter((e) => e.prefixes.length > 0);
  const plans = new Map<string, Entry[]>();
  for (const [key, indexes] of byKey) {
    plans.set(
      key,
      entries
        .map((e, i) =>
          indexes.has(i)
            ? { router: e.router, prefixes: [], layers: (e.router as unknown as RouterInternals).stack }
            : e,
        )
        .filter((e, i) => indexes.has(i) || e.prefixes.length > 0),
    );
  }
  const dispatch = (req: Request, res: Response, next: NextFunction): void => {
    const path = req.path;
    const plan = plans.get(dispatchKey(path)) ?? tested;
    let i = 0;
    const step = (err?: unknown): void => {
      if (err) return next(err);
      while (i < plan.length) {
        const entry = plan[i++]!;
        const reached = entry.layers
          ? someLayerMatches(entry.layers, path)
          : entry.prefixes.length === 0 || entry.prefixes.some((p) => path.startsWith(p));
        if (reached) {
          entry.router(req, res, step);
          return;
        }
      }
      next();
    };
    step();
  };
  return Object.assign(dispatch, { stack: routers.map((router) => ({ handle: router })) });
}
