/**
 * Reachable lengths along each axis (after Zhu & Lim's volume-loss estimate): for a length r,
 * the longest run of unit sizes (any of the units left, in any of their allowed orientations,
 * repeated freely) that fits in r. A block leaving a gap of r next to it wastes what no such run
 * can fill: r − reach(r). Lengths in whole cm (sizes and gaps rounded down).
 */
/** What the reach tables read of a job (job-context.ts JobContext fits): each kind's index and placed sizes, cm. */
export interface ReachJob {
  kinds: readonly { index: number; orientations: readonly { size: { l: number; w: number; h: number } }[] }[];
}

/** Per axis, `best[r]`: the longest run ≤ r cm; lengths past the table count as fully reachable. */
export interface Reach {
  x: Int32Array;
  y: Int32Array;
  z: Int32Array;
}

const cache = new WeakMap<ReachJob, Map<string, Reach>>();

/** The reach tables for the kinds with units left in `remaining`, up to `limit` cm (cached per job). */
export function reachFor(ctx: ReachJob, remaining: readonly number[], limit: number): Reach {
  let byKinds = cache.get(ctx);
  if (!byKinds) cache.set(ctx, (byKinds = new Map<string, Reach>()));
  const kinds = ctx.kinds.filter((k) => (remaining[k.index] ?? 0) > 0);
  const key = kinds.map((k) => k.index).join(',');
  const hit = byKinds.get(key);
  if (hit) return hit;
  const sizes = { x: new Set<number>(), y: new Set<number>(), z: new Set<number>() };
  for (const k of kinds) {
    for (const { size } of k.orientations) {
      sizes.x.add(Math.ceil(size.l - 1e-9));
      sizes.y.add(Math.ceil(size.h - 1e-9));
      sizes.z.add(Math.ceil(size.w - 1e-9));
    }
  }
  const n = Math.max(1, Math.ceil(limit));
  const reach: Reach = { x: table([...sizes.x], n), y: table([...sizes.y], n), z: table([...sizes.z], n) };
  byKinds.set(key, reach);
  return reach;
}

/** Unbounded subset sums: best[r] = the largest sum of `sizes` (with repeats) ≤ r, for r in 0..n. */
function table(sizes: number[], n: number): Int32Array {
  const ok = new Uint8Array(n + 1);
  ok[0] = 1;
  for (let r = 1; r <= n; r++) {
    for (const s of sizes) {
      if (s > 0 && s <= r && ok[r - s]) {
        ok[r] = 1;
        break;
      }
    }
  }
  const best = new Int32Array(n + 1);
  for (let r = 1; r <= n; r++) best[r] = ok[r] ? r : best[r - 1]!;
  return best;
}

/** cm of a gap of `gap` cm that no run of unit sizes fills (0 for gaps past the table). */
export function gapLoss(best: Int32Array, gap: number): number {
  const r = Math.floor(gap + 1e-9);
  if (r <= 0 || r >= best.length) return 0;
  return gap - best[r]!;
}
