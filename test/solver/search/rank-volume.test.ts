import t from 'tap';
import fc from 'fast-check';
import type { Orientation } from '../../../domain/pack/plan.js';
import { blocksFor, blockVolume, layersIn, rankBlocks, rankVolume, type Block } from '../../../solver/search/block.js';
import { EPS, initialSpace, type Space } from '../../../solver/search/maximal-space.js';
import type { Reach } from '../../../solver/search/reach.js';
import type { BlockScore } from '../../../solver/search/strategy.js';

/** best[r]: the longest run of `sizes` (repeats allowed) ≤ r, for r in 0..n (own implementation). */
function runs(sizes: number[], n: number): Int32Array {
  const best = new Int32Array(n + 1);
  const ok = new Set<number>([0]);
  for (let r = 1; r <= n; r++) {
    if (sizes.some((s) => ok.has(r - s))) ok.add(r);
    best[r] = ok.has(r) ? r : best[r - 1]!;
  }
  return best;
}

const ORIENTATIONS: [Orientation, (l: number, w: number, h: number) => [number, number, number]][] = [
  ['lwh', (l, w, h) => [l, w, h]],
  ['wlh', (l, w, h) => [w, l, h]],
  ['hwl', (l, w, h) => [h, w, l]],
];

const kindArb = fc.record({
  l: fc.integer({ min: 10, max: 120 }),
  w: fc.integer({ min: 10, max: 120 }),
  h: fc.integer({ min: 10, max: 120 }),
  available: fc.integer({ min: 1, max: 40 }),
  layers: fc.integer({ min: 1, max: 6 }),
});

/**
 * The greedy step (vehicle-load.ts candidates, one block wanted) skips a kind and orientation
 * whose largest block, l·w·h · min(units left, units the space holds), ranks below a block
 * already found: it relies on rankVolume never exceeding that and on rankBlocks putting the
 * highest rankVolume first.
 */
t.test('skipping kinds whose largest block is below the best found leaves the best block unchanged', async (t) => {
  let skipped = 0;
  fc.assert(
    fc.property(
      fc.array(kindArb, { minLength: 1, maxLength: 6 }),
      fc.integer({ min: 60, max: 400 }),
      fc.integer({ min: 60, max: 300 }),
      fc.integer({ min: 60, max: 250 }),
      fc.constantFrom<BlockScore>('volume', 'fitness'),
      fc.boolean(),
      (kinds, length, width, height, score, wallSlices) => {
        const space: Space = initialSpace(length, width, height);
        const n = Math.max(length, width, height);
        const reach: Reach = {
          x: runs(
            kinds.flatMap((k) => [k.l, k.w, k.h]),
            n,
          ),
          y: runs(
            kinds.flatMap((k) => [k.l, k.w, k.h]),
            n,
          ),
          z: runs(
            kinds.flatMap((k) => [k.l, k.w, k.h]),
            n,
          ),
        };
        const all: Block[] = [];
        const kept: Block[] = [];
        let bar = -Infinity;
        kinds.forEach((k, item) => {
          // A kind whose units left would all rank below the best found is skipped whole.
          if (bar > -Infinity && k.l * k.w * k.h * k.available < bar) {
            all.push(
              ...ORIENTATIONS.flatMap(([orientation, turn]) => {
                const [l, w, h] = turn(k.l, k.w, k.h);
                const limits = { available: k.available, byWeight: Infinity, layers: k.layers };
                return blocksFor(item, orientation, { l, w, h, pitch: h }, space, limits, width, wallSlices);
              }),
            );
            skipped++;
            return;
          }
          for (const [orientation, turn] of ORIENTATIONS) {
            const [l, w, h] = turn(k.l, k.w, k.h);
            const size = { l, w, h, pitch: h };
            const limits = { available: k.available, byWeight: Infinity, layers: k.layers };
            const blocks = blocksFor(item, orientation, size, space, limits, width, wallSlices);
            const most =
              Math.floor((space.x1 - space.x0 + EPS) / l) *
              Math.floor((space.z1 - space.z0 + EPS) / w) *
              Math.min(layersIn(space.y1 - space.y0, size), limits.layers);
            const largest = l * w * h * Math.min(limits.available, limits.byWeight, most);
            for (const b of blocks) {
              t.ok(blockVolume(b) <= largest + 1e-6, 'no block holds more than the bound');
              t.ok(rankVolume(b, score, space, reach) <= blockVolume(b) + 1e-6, 'rank volume at most the volume');
            }
            all.push(...blocks);
            if (bar > -Infinity && largest < bar) {
              skipped++;
              continue;
            }
            kept.push(...blocks);
            for (const b of blocks) bar = Math.max(bar, rankVolume(b, score, space, reach));
          }
        });
        const none = (): boolean => false;
        const best = rankBlocks(all, score, space, none, 1, reach)[0];
        const bestKept = rankBlocks(kept, score, space, none, 1, reach)[0];
        t.equal(bestKept, best, 'same best block');
      },
    ),
    { numRuns: 300 },
  );
  t.ok(skipped > 100, `kinds skipped in the runs: ${skipped}`);
});

t.test('rank volume: the volume for `volume`, less the unfillable gaps for `fitness`', async (t) => {
  const space = initialSpace(100, 100, 100);
  const block: Block = {
    item: 0,
    orientation: 'lwh',
    size: { l: 30, w: 40, h: 50, pitch: 50 },
    nx: 3,
    ny: 1,
    nz: 2,
    x: 0,
    y: 0,
    z: 0,
  };
  t.equal(rankVolume(block, 'volume', space), 30 * 40 * 50 * 6);
  // Units of 30 × 40 × 50 only: gaps of 10 (length), 20 (width) and 50 (height, one unit fits) left.
  const reach: Reach = { x: runs([30, 40, 50], 100), y: runs([30, 40, 50], 100), z: runs([30, 40, 50], 100) };
  t.equal(rankVolume(block, 'fitness', space, reach), 30 * 40 * 50 * 6 - 10 * 50 * 80 - 20 * 90 * 50);
});
