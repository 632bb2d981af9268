import fc from 'fast-check';
import t from 'tap';
import { verifyPlan } from '../../../solver/verify/verify.js';
import type { GridBox } from './plan-fixture.js';
import { gridPlan, refigure } from './plan-fixture.js';

/**
 * A floor grid of nx × nz cells; each cell holds a column of 1..3 boxes with the same footprint
 * (so each rests fully on the one below), at a random offset inside the cell. Sizes are doubles,
 * so coordinates carry float noise. Boxes are listed level by level: supports come first.
 */
const gridArb = fc
  .record({
    cellLength: fc.double({ min: 10, max: 100, noNaN: true }),
    cellWidth: fc.double({ min: 10, max: 100, noNaN: true }),
    nx: fc.integer({ min: 1, max: 6 }),
    nz: fc.integer({ min: 1, max: 6 }),
  })
  .chain((g) =>
    fc.record({
      grid: fc.constant(g),
      cells: fc.array(
        fc.record({
          fillX: fc.double({ min: 0.2, max: 1, noNaN: true }),
          fillZ: fc.double({ min: 0.2, max: 1, noNaN: true }),
          slackX: fc.double({ min: 0, max: 1, noNaN: true }),
          slackZ: fc.double({ min: 0, max: 1, noNaN: true }),
          heights: fc.array(fc.double({ min: 5, max: 80, noNaN: true }), { minLength: 1, maxLength: 3 }),
          weight: fc.double({ min: 0.5, max: 50, noNaN: true }),
        }),
        { minLength: g.nx * g.nz, maxLength: g.nx * g.nz },
      ),
    }),
  )
  .map(({ grid, cells }) => {
    const boxes: GridBox[] = [];
    for (let level = 0; level < 3; level++) {
      cells.forEach((c, i) => {
        const height = c.heights[level];
        if (height === undefined) return;
        const length = grid.cellLength * c.fillX;
        const width = grid.cellWidth * c.fillZ;
        const x = Math.floor(i / grid.nz) * grid.cellLength + (grid.cellLength - length) * c.slackX;
        const z = (i % grid.nz) * grid.cellWidth + (grid.cellWidth - width) * c.slackZ;
        const y = c.heights.slice(0, level).reduce((s, h) => s + h, 0);
        boxes.push({ x, y, z, length, width, height, weight: c.weight });
      });
    }
    return gridPlan({ length: grid.nx * grid.cellLength, width: grid.nz * grid.cellWidth, height: 240 }, boxes);
  });

t.test('random non-overlapping grids of stacked boxes verify clean', async (t) => {
  fc.assert(
    fc.property(gridArb, ({ model, plan }) => {
      const violations = verifyPlan(model, plan);
      if (violations.length > 0) throw new Error(violations.map((v) => v.message).join('\n'));
    }),
    { numRuns: 200 },
  );
  t.pass('200 grids verified clean');
});

t.test('shifting one box into another is always caught as an overlap naming both', async (t) => {
  const arb = gridArb
    .filter(({ plan }) => plan.vehicles[0]!.placements.length >= 2)
    .chain((g) => {
      const n = g.plan.vehicles[0]!.placements.length;
      return fc.record({
        g: fc.constant(g),
        moved: fc.integer({ min: 0, max: n - 1 }),
        target: fc.integer({ min: 0, max: n - 2 }),
        fx: fc.double({ min: 0, max: 0.9, noNaN: true }),
        fy: fc.double({ min: 0, max: 0.9, noNaN: true }),
        fz: fc.double({ min: 0, max: 0.9, noNaN: true }),
      });
    });
  fc.assert(
    fc.property(arb, ({ g: { model, plan }, moved, target, fx, fy, fz }) => {
      const placements = plan.vehicles[0]!.placements;
      const a = placements[moved]!;
      const b = placements[target >= moved ? target + 1 : target]!;
      a.x = b.x + fx * b.length;
      a.y = b.y + fy * b.height;
      a.z = b.z + fz * b.width;
      refigure(plan.vehicles[0]!);
      const overlaps = verifyPlan(model, plan).filter((v) => v.rule === 'overlap');
      const named = overlaps.some(
        (v) => v.message.includes(`${a.item_id}#1 `) && v.message.includes(`${b.item_id}#1 `),
      );
      if (!named) throw new Error(`overlap of ${a.item_id} and ${b.item_id} not reported: ${JSON.stringify(overlaps)}`);
    }),
    { numRuns: 300 },
  );
  t.pass('300 shifted boxes caught');
});
