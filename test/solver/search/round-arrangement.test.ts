/**
 * Arrangements of upright round units: unit counts worked by hand for the 200 l
 * drum (r = 29.5 cm) on a 20 ft container floor and a 13.6 m trailer floor, and, for random
 * footprints, circles inside the footprint that never overlap (checked here, apart from the
 * search code), with the best arrangement never below the square grid.
 */
import t from 'tap';
import fc from 'fast-check';
import {
  bestRoundLayer,
  firstCentres,
  roundLayers,
  type RoundLayer,
} from '../../../solver/search/round-arrangement.js';
import { roundBlocksFor } from '../../../solver/search/round-block.js';
import { blockCentre, blockExtent, blockUnits } from '../../../solver/search/block.js';
import { initialSpace } from '../../../solver/search/maximal-space.js';

const counts = (r: number, l: number, w: number): Record<string, number> =>
  Object.fromEntries(roundLayers(r, l, w).map((a) => [a.arrangement, a.centres.length]));

/** Geometry problems of a layer in an l × w footprint: a circle outside, two circles overlapping. */
function problems(a: RoundLayer, l: number, w: number): string[] {
  const r = a.radius,
    out: string[] = [];
  a.centres.forEach((c, i) => {
    if (c.x - r < -1e-6 || c.z - r < -1e-6 || c.x + r > Math.min(l, a.dx) + 1e-6 || c.z + r > Math.min(w, a.dz) + 1e-6)
      out.push(`circle ${i} outside`);
    for (let j = 0; j < i; j++) {
      const d = Math.hypot(c.x - a.centres[j]!.x, c.z - a.centres[j]!.z);
      if (d < 2 * r - 1e-6) out.push(`circles ${j} and ${i} overlap (${d} < ${2 * r})`);
    }
  });
  return out;
}

t.test('200 l drums on a 20 ft container floor: 27 square, 36 in staggered lines, 33 in staggered rows', async (t) => {
  t.same(counts(29.5, 589, 235), { square: 27, lines: 36, rows: 33 });
  const best = bestRoundLayer(29.5, 589, 235)!;
  t.equal(best.arrangement, 'lines');
  t.equal(best.centres.length, 36);
  t.same(problems(best, 589, 235), []);
  // 9 + 9 units along the length (the shifted line ends 29.5 cm further), 4 lines across.
  t.equal(best.dx, 9 * 59 + 29.5);
  t.ok(Math.abs(best.dz - (59 + 3 * 29.5 * Math.sqrt(3))) < 1e-9);
});

t.test('200 l drums on a 13.6 m trailer floor 248 cm wide: the square grid (92) beats staggering', async (t) => {
  t.same(counts(29.5, 1360, 248), { square: 92, lines: 90, rows: 91 });
  t.equal(bestRoundLayer(29.5, 1360, 248)!.arrangement, 'square');
});

t.test('a footprint narrower than one unit holds none', async (t) => {
  t.equal(bestRoundLayer(29.5, 589, 58), null);
});

t.test(
  'random footprints: circles inside and apart, the best at least the square grid, partial layers compact',
  async (t) => {
    fc.assert(
      fc.property(
        fc.integer({ min: 15, max: 60 }),
        fc.integer({ min: 10, max: 1400 }),
        fc.integer({ min: 10, max: 260 }),
        fc.integer({ min: 1, max: 400 }),
        (r, l, w, n) => {
          const layers = roundLayers(r, l, w);
          for (const a of layers) {
            const p = problems(a, l, w);
            if (p.length > 0) throw new Error(`${a.arrangement}: ${p[0]}`);
          }
          const best = bestRoundLayer(r, l, w);
          const square = layers.find((a) => a.arrangement === 'square')!.centres.length;
          if (square === 0) return best === null || best.centres.length > 0;
          if (!best || best.centres.length < square) return false;
          const part = firstCentres(best, n);
          // The first centre is the min corner's circle: a partial layer's envelope starts at 0, 0.
          return (
            part.centres.length === Math.min(n, best.centres.length) &&
            problems(part, l, w).length === 0 &&
            part.dx <= best.dx + 1e-9 &&
            part.dz <= best.dz + 1e-9
          );
        },
      ),
      { numRuns: 300, seed: 10 },
    );
    t.pass('300 random footprints');
  },
);

t.test('round blocks: staggered layers stacked within the limits, anchored at the nearer side wall', async (t) => {
  const size = { l: 59, w: 59, h: 88, pitch: 88 };
  const space = initialSpace(589, 235, 239);
  const blocks = roundBlocksFor(0, 'lwh', size, space, { available: 100, byWeight: 100, layers: Infinity }, 235);
  t.same(
    blocks.map((b) => [b.stagger?.arrangement, b.stagger?.centres.length, b.ny, blockUnits(b)]),
    [['lines', 36, 2, 72]],
  );
  const few = roundBlocksFor(0, 'lwh', size, space, { available: 10, byWeight: 7, layers: 1 }, 235);
  t.same(
    few.map((b) => blockUnits(b)),
    [7],
    'the payload bounds the units',
  );
  // A space along the right-hand wall: the block ends at the wall.
  const right = { ...space, z0: 100 };
  const [b] = roundBlocksFor(0, 'lwh', size, right, { available: 6, byWeight: 100, layers: 1 }, 235);
  t.ok(b && Math.abs(b.z + blockExtent(b).dz - 235) < 1e-9, 'ends at z = 235');
  t.same(roundBlocksFor(0, 'lwh', size, { ...space, z1: 58 }, { available: 6, byWeight: 100, layers: 1 }, 235), []);
  // On the trailer floor the square grid wins: ordinary blocks, no stagger.
  const trailer = roundBlocksFor(
    0,
    'lwh',
    size,
    initialSpace(1360, 248, 270),
    { available: 100, byWeight: 100, layers: 1 },
    248,
  );
  t.ok(trailer.length > 0 && trailer.every((x) => !x.stagger));
  t.equal(Math.max(...trailer.map(blockUnits)), 92);
});

t.test('the centre of a partial staggered block is the mean of its circles, not of its envelope', async (t) => {
  const size = { l: 59, w: 59, h: 88, pitch: 88 };
  // Three drums of the 20 ft layer: lines 0 and 2 at x = 29.5, line 1 at x = 59; envelope 88.5 long.
  const [b] = roundBlocksFor(
    0,
    'lwh',
    size,
    initialSpace(589, 235, 239),
    { available: 3, byWeight: 100, layers: 1 },
    235,
  );
  t.equal(b?.stagger?.arrangement, 'lines');
  t.equal(blockUnits(b!), 3);
  t.equal(blockExtent(b!).dx, 88.5);
  const c = blockCentre(b!);
  t.ok(Math.abs(c.x - (29.5 + 29.5 + 59) / 3) < 1e-9, `x ${c.x} (the envelope's middle is 44.25)`);
  t.ok(Math.abs(c.z - (29.5 + 29.5 * Math.sqrt(3))) < 1e-9, `z ${c.z}`);
});
