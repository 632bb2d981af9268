import t from 'tap';
import fc from 'fast-check';
import type { ItemModel, Orientation, PackModel } from '../../../domain/pack/plan.js';
import { ALL_ORIENTATIONS } from '../../../domain/pack/plan.js';
import {
  generalBlocksFor,
  generalParts,
  generalShapes,
  MIN_FILL,
  type GeneralShape,
} from '../../../solver/search/general-block.js';
import { blockExtent } from '../../../solver/search/block.js';
import { jobContext } from '../../../solver/search/job-context.js';
import { EPS, initialSpace } from '../../../solver/search/maximal-space.js';
import { loadFleet } from '../../../solver/search/fleet-load.js';
import { assemblePlan } from '../../../solver/search/plan-assembly.js';
import { workBudget } from '../../../solver/search/work-budget.js';
import type { Strategy } from '../../../solver/search/strategy.js';
import { verifyPlan } from '../../../solver/verify/verify.js';

const E = 1e-6;

const item = (o: Partial<ItemModel> & Pick<ItemModel, 'length' | 'width' | 'height'>, i = 0): ItemModel => ({
  id: `i${i}`,
  label: `item ${i}`,
  shape: 'box',
  weight: 10,
  quantity: 1,
  stackable: true,
  maxStackWeight: 0,
  nestingHeight: 0,
  orientations: ['lwh'],
  priority: 0,
  hazardous: false,
  group: null,
  groupOrder: Number.MAX_SAFE_INTEGER,
  color: null,
  ...o,
});

const model = (items: ItemModel[], v = { length: 300, width: 200, height: 200 }): PackModel => ({
  vehicles: [
    {
      id: 'v',
      name: 'V',
      type: 'container',
      ...v,
      maxWeight: 1e6,
      quantity: 1,
      blockedAreas: [],
      floorLoadCapacity: 0,
      axles: null,
      auxDeck: null,
    },
  ],
  items,
  packingMode: 'fleet_only',
  maxVehicles: 1,
  allowOverweight: false,
  maxStackItems: 0,
  maxStackDensity: 0,
  enforceAxle: false,
  groupRouting: 'none',
  budgetMs: 1000,
  seed: 1,
});

/** Problems of one shape: parts outside its box or overlapping, fill, counts, unsupported upper parts. */
function shapeProblems(s: GeneralShape, quantity: number[]): string[] {
  const out: string[] = [];
  const boxes = s.parts.map((p) => ({
    x0: p.x,
    y0: p.y,
    z0: p.z,
    x1: p.x + p.size.l * p.nx,
    y1: p.y + p.size.h * p.ny,
    z1: p.z + p.size.w * p.nz,
  }));
  let volume = 0;
  for (const [n, b] of boxes.entries()) {
    volume += (b.x1 - b.x0) * (b.y1 - b.y0) * (b.z1 - b.z0);
    if (b.x0 < -E || b.y0 < -E || b.z0 < -E || b.x1 > s.dx + E || b.y1 > s.dy + E || b.z1 > s.dz + E)
      out.push(`part ${n} outside`);
    for (const [m, c] of boxes.entries()) {
      if (m <= n) continue;
      if (
        Math.min(b.x1, c.x1) - Math.max(b.x0, c.x0) > E &&
        Math.min(b.y1, c.y1) - Math.max(b.y0, c.y0) > E &&
        Math.min(b.z1, c.z1) - Math.max(b.z0, c.z0) > E
      ) {
        out.push(`parts ${n} and ${m} overlap`);
      }
    }
    // Full support inside the shape: an upper part's base lies on tops exactly at its height (the
    // tops under it do not overlap each other, so their shared areas add up).
    if (b.y0 > E) {
      let covered = 0;
      for (const c of boxes) {
        if (Math.abs(c.y1 - b.y0) > E) continue;
        covered +=
          Math.max(0, Math.min(b.x1, c.x1) - Math.max(b.x0, c.x0)) *
          Math.max(0, Math.min(b.z1, c.z1) - Math.max(b.z0, c.z0));
      }
      if (covered < (b.x1 - b.x0) * (b.z1 - b.z0) - 1e-4) out.push(`part ${n} not fully supported`);
    }
  }
  if (Math.abs(volume - s.volume) > 1e-3) out.push(`volume ${volume} ≠ ${s.volume}`);
  if (s.volume < MIN_FILL * s.dx * s.dy * s.dz - 1e-3) out.push(`fill ${s.volume / (s.dx * s.dy * s.dz)}`);
  if (s.parts.length < 2) out.push('one part');
  for (const [i, n] of s.need) if (n > quantity[i]!) out.push(`needs ${n} of item ${i}, has ${quantity[i]}`);
  const units = s.parts.reduce((a, p) => a + p.nx * p.ny * p.nz, 0);
  if (units !== s.units || units !== s.need.reduce((a, [, n]) => a + n, 0)) out.push(`units ${units}`);
  return out;
}

t.test('two boxes of the same height that fill a width together make one level general block', async (t) => {
  const ctx = jobContext(
    model([item({ length: 100, width: 120, height: 50 }, 0), item({ length: 100, width: 80, height: 50 }, 1)]),
  );
  const shapes = generalShapes(ctx, 300, 200, 200);
  const side = shapes.find((s) => s.dx === 100 && s.dz === 200 && s.dy === 50);
  t.ok(side, 'the 100 × 50 × 200 block of both boxes side by side');
  t.same(side?.need, [
    [0, 1],
    [1, 1],
  ]);
  t.equal(side?.flat, true);
  // Boxes of different heights are never joined side by side, and nothing stands on a top that is not level.
  const ctx2 = jobContext(
    model([item({ length: 100, width: 120, height: 50 }, 0), item({ length: 100, width: 80, height: 49 }, 1)]),
  );
  t.same(
    generalShapes(ctx2, 300, 200, 200).filter((s) => s.need.length === 2),
    [],
  );
});

t.test('a box on a box of nearly the same footprint is a general block; one far smaller is not', async (t) => {
  const ctx = jobContext(
    model([
      item({ length: 100, width: 100, height: 40 }, 0),
      item({ length: 100, width: 99, height: 30 }, 1),
      item({ length: 60, width: 60, height: 30 }, 2),
    ]),
  );
  const shapes = generalShapes(ctx, 300, 200, 200);
  const stack = shapes.find((s) => s.dy === 70 && s.need.length === 2 && s.need[1]![0] === 1);
  t.ok(stack, 'item 1 on item 0');
  t.equal(stack?.parts[1]?.y, 40, 'the upper box stands on the lower one');
  t.equal(stack?.flat, false, 'its top is not the whole footprint');
  t.notOk(
    shapes.some((s) => s.need.some(([i]) => i === 2)),
    'the small box joins nothing at MIN_FILL',
  );
});

t.test('two boxes side by side whose widths differ join while the pair fills MIN_FILL of its box', async (t) => {
  // 100 × 120 × 50 beside 100 × w × 50 along the length: the pair fills (120 + w) / 240 of its
  // 200 × 50 × 120 box (the boxes are too wide to stand side by side across a 200 cm width);
  // the strip the narrower box leaves free counts against the fill.
  const pair = (w: number) => {
    const ctx = jobContext(
      model([item({ length: 100, width: 120, height: 50 }, 0), item({ length: 100, width: w, height: 50 }, 1)]),
    );
    return generalShapes(ctx, 300, 200, 200).find((s) => s.need.length === 2 && s.dx === 200 && s.dy === 50);
  };
  t.equal(MIN_FILL, 0.98);
  const joined = pair(116);
  t.ok(joined, '98.3 % full: joined');
  t.equal(joined?.dz, 120);
  t.same(
    joined?.parts.map((p) => [p.x, p.y, p.z]),
    [
      [0, 0, 0],
      [100, 0, 0],
    ],
    'both on the floor of the block, one after the other',
  );
  t.equal(joined?.flat, false, 'the narrower box leaves part of the footprint without a top');
  t.notOk(pair(114), '97.5 % full: not joined');
});

t.test('general shapes of random jobs keep their parts inside, apart, supported and within the counts', async (t) => {
  const sizes = fc.constantFrom(20, 25, 30, 40, 50, 60);
  const arb = fc.array(
    fc.record({
      length: sizes,
      width: sizes,
      height: sizes,
      quantity: fc.integer({ min: 1, max: 5 }),
      orientations: fc.subarray<Orientation>([...ALL_ORIENTATIONS], { minLength: 1 }),
    }),
    { minLength: 1, maxLength: 6 },
  );
  let shapesSeen = 0;
  fc.assert(
    fc.property(arb, (its) => {
      const m = model(
        its.map((o, i) => item(o, i)),
        { length: 200, width: 150, height: 120 },
      );
      const ctx = jobContext(m);
      const shapes = generalShapes(ctx, 200, 120, 150);
      shapesSeen += shapes.length;
      for (const s of shapes) {
        if (s.dx > 200 + E || s.dy > 120 + E || s.dz > 150 + E) throw new Error('shape larger than the vehicle');
        const problems = shapeProblems(
          s,
          m.items.map((it) => it.quantity),
        );
        if (problems.length > 0) throw new Error(`${problems.join(', ')} in ${JSON.stringify(s)}`);
      }
      for (let k = 1; k < shapes.length; k++)
        if (shapes[k]!.volume > shapes[k - 1]!.volume + E) throw new Error('not largest first');
    }),
    { numRuns: 150, seed: 8 },
  );
  t.ok(shapesSeen > 150, `the random jobs gave ${shapesSeen} general shapes`);
});

t.test('general blocks for a space fit it, need no more units than are left, and sit at the wall side', async (t) => {
  const ctx = jobContext(
    model([
      item({ length: 100, width: 120, height: 50, quantity: 2 }, 0),
      item({ length: 100, width: 80, height: 50, quantity: 2 }, 1),
    ]),
  );
  const shapes = generalShapes(ctx, 300, 200, 200);
  const space = { ...initialSpace(300, 200, 200), z0: 150, z1: 400 };
  const blocks = generalBlocksFor(shapes, space, [2, 1], Infinity, 400, 100);
  t.ok(blocks.length > 0);
  for (const b of blocks) {
    const e = blockExtent(b);
    t.ok(b.z + e.dz <= 400 + E && b.z >= 150 - E && e.dx <= 300 + E && e.dy <= 200 + E, 'inside the space');
    t.ok(
      b.general!.need.every(([i, n]) => n <= [2, 1][i]!),
      'within the units left',
    );
    // Nearer the right wall (z = 400): flush with it, parts mirrored inside the block.
    t.equal(b.z + e.dz, 400);
    for (const p of generalParts(b)) t.ok(p.z >= b.z - E && p.z + p.size.w * p.nz <= b.z + e.dz + E);
  }
  t.same(generalBlocksFor(shapes, space, [0, 0], Infinity, 400, 100), [], 'nothing without units left');
  t.same(generalBlocksFor(shapes, space, [2, 2], 15, 400, 100), [], 'nothing over the payload left');
});

t.test(
  'the scan of general shapes skips only shapes that cannot fit or cannot beat the least volume asked for',
  async (t) => {
    let compared = 0;
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            length: fc.constantFrom(20, 25, 30, 40, 50, 60),
            width: fc.constantFrom(20, 25, 30, 40, 50, 60),
            height: fc.constantFrom(20, 25, 30, 40, 50, 60),
            quantity: fc.integer({ min: 1, max: 3 }),
          }),
          { minLength: 2, maxLength: 8 },
        ),
        fc.record({
          x: fc.integer({ min: 0, max: 200 }),
          y: fc.integer({ min: 0, max: 100 }),
          z: fc.integer({ min: 0, max: 100 }),
          dx: fc.integer({ min: 20, max: 200 }),
          dy: fc.integer({ min: 20, max: 150 }),
          dz: fc.integer({ min: 20, max: 150 }),
        }),
        fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 8, maxLength: 8 }),
        fc.integer({ min: 1, max: 60 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (kinds, box, left, limit, cut) => {
          const ctx = jobContext(model(kinds.map((k, i) => item({ ...k, orientations: ['lwh', 'wlh'] }, i))));
          const shapes = generalShapes(ctx, 300, 200, 200);
          const space = {
            ...initialSpace(300, 200, 200),
            x0: box.x,
            x1: Math.min(300, box.x + box.dx),
            y0: box.y,
            y1: Math.min(200, box.y + box.dy),
            z0: box.z,
            z1: Math.min(200, box.z + box.dz),
          };
          const remaining = kinds.map((_, i) => left[i]!);
          // Every shape that fits the space with the units left, in order, the first `limit`.
          const fitting = shapes
            .filter(
              (s) =>
                s.dx <= space.x1 - space.x0 + EPS &&
                s.dy <= space.y1 - space.y0 + EPS &&
                s.dz <= space.z1 - space.z0 + EPS &&
                s.need.every(([i, n]) => n <= remaining[i]!),
            )
            .slice(0, limit);
          const least = fitting.length > 0 ? fitting[Math.floor(cut * fitting.length)]!.volume : 0;
          compared += fitting.length;
          const all = generalBlocksFor(shapes, space, remaining, Infinity, 200, limit).map((b) => b.general);
          const big = generalBlocksFor(shapes, space, remaining, Infinity, 200, limit, least).map((b) => b.general);
          return (
            all.length === fitting.length &&
            all.every((g, k) => g === fitting[k]) &&
            big.length === fitting.filter((s) => s.volume >= least).length &&
            big.every((g, k) => g === fitting[k])
          );
        },
      ),
      { numRuns: 200, seed: 21 },
    );
    t.ok(compared > 200, `${compared} fitting shapes compared`);
  },
);

const greedy = (general: boolean): Strategy => ({
  name: 'test',
  spaceRank: 'corner',
  blockScore: 'volume',
  rcl: 0,
  pilot: 0,
  beam: 0,
  branch: 0,
  wallSlices: false,
  general,
  seed: 1,
});

t.test('constructions with general blocks verify, and they change what the construction does', async (t) => {
  const sizes = fc.constantFrom(20, 30, 40, 50, 60);
  const arb = fc.record({
    items: fc.array(
      fc.record({
        length: sizes,
        width: sizes,
        height: sizes,
        quantity: fc.integer({ min: 1, max: 3 }),
        weight: fc.integer({ min: 0, max: 50 }),
        orientations: fc.subarray<Orientation>([...ALL_ORIENTATIONS], { minLength: 1 }),
        stackable: fc.boolean(),
        priority: fc.integer({ min: 0, max: 1 }),
      }),
      { minLength: 2, maxLength: 7 },
    ),
    vehicle: fc.record({
      length: fc.integer({ min: 80, max: 300 }),
      width: fc.integer({ min: 60, max: 200 }),
      height: fc.integer({ min: 60, max: 200 }),
      maxWeight: fc.integer({ min: 50, max: 2000 }),
    }),
    beam: fc.constantFrom(0, 2),
  });
  let differ = 0;
  fc.assert(
    fc.property(arb, ({ items, vehicle, beam }) => {
      const m = {
        ...model(
          items.map((o, i) => item(o, i)),
          vehicle,
        ),
        packingMode: 'auto' as const,
        maxVehicles: 3,
      };
      m.vehicles[0] = { ...m.vehicles[0]!, maxWeight: vehicle.maxWeight };
      const ctx = jobContext(m);
      if (!ctx.generalBlocks) throw new Error('at most 3 units per kind: a job for general blocks');
      const run = (general: boolean) =>
        loadFleet(ctx, { ...greedy(general), beam, branch: beam > 0 ? 4 : 0 }, workBudget(Date.now() + 5000, 3000));
      const withGeneral = run(true);
      const plan = assemblePlan(m, withGeneral);
      const violations = verifyPlan(m, plan);
      if (violations.length > 0) throw new Error(JSON.stringify(violations.slice(0, 3)));
      const plain = assemblePlan(m, run(false));
      if (
        JSON.stringify(plan.vehicles.map((v) => v.placements)) !==
        JSON.stringify(plain.vehicles.map((v) => v.placements))
      )
        differ++;
    }),
    { numRuns: 120, seed: 9 },
  );
  t.ok(differ > 10, `general blocks changed ${differ} of 120 constructions`);
});

t.test(
  'a job of more than three kinds with more than three units per kind on average gets no general blocks',
  async (t) => {
    const m = model([
      item({ length: 100, width: 120, height: 50, quantity: 4 }, 0),
      item({ length: 100, width: 80, height: 50, quantity: 4 }, 1),
      item({ length: 60, width: 80, height: 50, quantity: 4 }, 2),
      item({ length: 60, width: 40, height: 50, quantity: 4 }, 3),
    ]);
    const ctx = jobContext(m);
    t.equal(ctx.generalBlocks, false);
    const place = (general: boolean) =>
      assemblePlan(m, loadFleet(ctx, greedy(general), workBudget(Date.now() + 5000, 3000))).vehicles.map(
        (v) => v.placements,
      );
    t.same(place(true), place(false));
    t.equal(jobContext(model([item({ length: 100, width: 120, height: 50, quantity: 3 }, 0)])).generalBlocks, true);
  },
);

t.test('a job of at most three kinds gets general blocks, however many units each', async (t) => {
  const kinds = (n: number) =>
    jobContext(
      model(Array.from({ length: n }, (_, i) => item({ length: 40 + 10 * i, width: 30, height: 20, quantity: 50 }, i))),
    ).generalBlocks;
  t.same([1, 2, 3, 4, 5].map(kinds), [true, true, true, false, false]);
});
