/**
 * The space update's last step (solver/search/maximal-space.ts): removeContainedAfter, which
 * checks the spaces kept from the last update only against the new ones, gives the list of
 * removeContained over all of them, the same spaces in the same order (fast-check).
 */
import fc from 'fast-check';
import t from 'tap';
import {
  initialSpace,
  occupy,
  removeContained,
  removeContainedAfter,
  type Space,
} from '../../../solver/search/maximal-space.js';

/** Spaces on a coarse grid, so equal volumes, equal spaces and containment are common. */
const space: fc.Arbitrary<Space> = fc
  .record({
    x: fc.tuple(fc.integer({ min: 0, max: 6 }), fc.integer({ min: 1, max: 6 })),
    y: fc.tuple(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 1, max: 4 })),
    z: fc.tuple(fc.integer({ min: 0, max: 4 }), fc.integer({ min: 1, max: 4 })),
    level: fc.integer({ min: 0, max: 2 }),
    capacity: fc.constantFrom(1, 2, Infinity),
  })
  .map(({ x, y, z, level, capacity }) => ({
    x0: x[0] * 10,
    x1: (x[0] + x[1]) * 10,
    y0: y[0] * 10,
    y1: (y[0] + y[1]) * 10,
    z0: z[0] * 10,
    z1: (z[0] + z[1]) * 10,
    level,
    capacity,
    palletBase: true,
    bearerDensity: Infinity,
    bearerWeight: Infinity,
  }));
const minSize = fc.record({
  x: fc.constantFrom(1, 10, 20),
  y: fc.constantFrom(1, 10, 20),
  z: fc.constantFrom(1, 10, 20),
});

t.test('kept spaces of an earlier update, then new ones: the same list as checking all', async (t) => {
  fc.assert(
    fc.property(
      fc.array(space, { maxLength: 25 }),
      fc.array(space, { maxLength: 12 }),
      fc.array(fc.boolean(), { minLength: 25, maxLength: 25 }),
      minSize,
      minSize,
      (before, added, keep, minBefore, min) => {
        // What the last update left, some of it since removed (a subsequence stays dominance-free).
        const kept = removeContained(before, minBefore).filter((_, i) => keep[i]);
        t.strictSame(removeContainedAfter(kept, added, min), removeContained(kept.concat(added), min));
      },
    ),
    { numRuns: 3000 },
  );
});

t.test('every occupy result is already free of contained spaces, in order', async (t) => {
  const box = fc
    .record({ s: space, supportsAbove: fc.boolean(), topLevel: fc.integer({ min: 1, max: 3 }) })
    .map(({ s, supportsAbove, topLevel }) => ({
      ...s,
      topLevel,
      supportsAbove,
      capacityAbove: s.capacity,
      palletTop: true,
      densityAbove: Infinity,
      weightAbove: Infinity,
    }));
  fc.assert(
    fc.property(fc.array(box, { minLength: 1, maxLength: 10 }), minSize, (boxes, min) => {
      let spaces = [initialSpace(80, 50, 80)];
      for (const b of boxes) {
        spaces = occupy(spaces, b, min);
        t.strictSame(removeContained(spaces, min), spaces);
      }
    }),
    { numRuns: 500 },
  );
});
