/**
 * Round units in the verifier: upright cylinders and drums are circles on the
 * floor plane (solver/verify/footprint.ts). Staggered drums whose bounding boxes overlap verify;
 * circles that cut into each other or into a box do not; a drum column stacked exactly verifies,
 * an offset drum or a box on drums is not fully supported.
 */
import fc from 'fast-check';
import t from 'tap';
import type { Orientation } from '../../../domain/pack/plan.js';
import {
  coveredShare,
  footprintArea,
  penetration,
  sharedArea,
  type Footprint,
} from '../../../solver/verify/footprint.js';
import { verifyPlan } from '../../../solver/verify/verify.js';
import { gridPlan, refigure } from './plan-fixture.js';

const R = 29.5; // a 200 l drum: radius 29.5 cm, height 88 cm
const H = 88;
const CONTAINER_20FT = { length: 589, width: 235, height: 239 };

interface Unit {
  x: number;
  y: number;
  z: number;
  /** Defaults to a drum; a box gives its size. */
  box?: { length: number; width: number; height: number };
  orientation?: Orientation;
}

/** A plan of one vehicle with drums (bounding box 2R × 2R × H at the min corner given) and boxes. */
function plan(space: { length: number; width: number; height: number }, units: readonly Unit[]) {
  const p = gridPlan(
    space,
    units.map((u) => ({
      x: u.x,
      y: u.y,
      z: u.z,
      weight: 10,
      ...(u.box ?? { length: 2 * R, width: 2 * R, height: H }),
    })),
  );
  units.forEach((u, i) => {
    if (u.box) return;
    const item = p.model.items[i]!;
    item.shape = 'drum';
    item.orientations = ['lwh', 'wlh'];
    if (u.orientation) p.plan.vehicles[0]!.placements[i]!.orientation = u.orientation;
  });
  refigure(p.plan.vehicles[0]!);
  return p;
}
const rules = (p: ReturnType<typeof plan>) => verifyPlan(p.model, p.plan).map((v) => `${v.rule}: ${v.message}`);

/** Drums in `lines` lines along x, line pitch `pitch` across z, every second line shifted by R. */
function staggered(lines: number, perLine: number, pitch: number, y = 0): Unit[] {
  const units: Unit[] = [];
  for (let k = 0; k < lines; k++)
    for (let i = 0; i < perLine; i++) units.push({ x: i * 2 * R + (k % 2) * R, y, z: k * pitch });
  return units;
}

t.test('36 staggered drums in a 20 ft container verify; squeezed 1 mm closer they overlap', async (t) => {
  const pitch = R * Math.sqrt(3);
  t.same(rules(plan(CONTAINER_20FT, staggered(4, 9, pitch))), [], '4 lines of 9 at pitch r·√3');
  const squeezed = rules(plan(CONTAINER_20FT, staggered(4, 9, pitch - 0.1)));
  t.ok(squeezed.length > 0);
  t.same(
    squeezed.filter((m) => !m.startsWith('overlap: ')),
    [],
  );
  t.match(
    squeezed[0],
    /^overlap: u0#1 and u9#1 in vehicle 0: their circles reach 0\.0865[0-9]* cm into each other over 88 cm of height\.$/,
  );
});

t.test('a drum column stacked exactly verifies; offset by 1 cm it is not fully supported', async (t) => {
  t.same(
    rules(
      plan(CONTAINER_20FT, [
        { x: 0, y: 0, z: 0 },
        { x: 0, y: H, z: 0 },
      ]),
    ),
    [],
  );
  const offset = rules(
    plan(CONTAINER_20FT, [
      { x: 0, y: 0, z: 0 },
      { x: 1, y: H, z: 0 },
    ]),
  );
  t.equal(offset.length, 1);
  t.match(offset[0], /^support: u1#1 .* supported on .* of 2733\.97[0-9]* cm² of its base \(97\.[0-9]+%, by 1 unit\)/);
});

t.test('a staggered second layer rests on drums of the first only where the circles meet', async (t) => {
  const pitch = R * Math.sqrt(3);
  const two = [...staggered(2, 3, pitch), ...staggered(2, 3, pitch, H)];
  t.same(rules(plan(CONTAINER_20FT, two)), [], 'two identical staggered layers');
});

t.test('a drum on a pallet verifies; a pallet on drums does not', async (t) => {
  const pallet = { length: 120, width: 80, height: 15 };
  t.same(
    rules(
      plan(CONTAINER_20FT, [
        { x: 0, y: 0, z: 0, box: pallet },
        { x: 0, y: 15, z: 0 },
        { x: 59, y: 15, z: 0 },
      ]),
    ),
    [],
  );
  const onDrums = rules(
    plan(CONTAINER_20FT, [
      { x: 0, y: 0, z: 0 },
      { x: 59, y: 0, z: 0 },
      { x: 0, y: 0, z: 59 },
      { x: 59, y: 0, z: 59 },
      { x: 0, y: H, z: 0, box: { length: 118, width: 118, height: 10 } },
    ]),
  );
  t.equal(onDrums.length, 1);
  // Four circles of r 29.5 in a 118 × 118 square cover π/4 of it.
  t.match(onDrums[0], /^support: u4#1 .* \(78\.[0-9]+%, by 4 units\)/);
});

t.test('a box in the corner between drums verifies when it misses the circles, not when it cuts one', async (t) => {
  // The drum's circle is centred at (29.5, 29.5); the box's corner at (59, 59) − 8 is 29.5·√2 − 8·√2 ≈ 30.4 cm from it.
  const corner = { length: 20, width: 20, height: 50 };
  t.same(
    rules(
      plan(CONTAINER_20FT, [
        { x: 0, y: 0, z: 0 },
        { x: 51, y: 0, z: 51, box: corner },
      ]),
    ),
    [],
  );
  const cut = rules(
    plan(CONTAINER_20FT, [
      { x: 0, y: 0, z: 0 },
      { x: 45, y: 0, z: 45, box: corner },
    ]),
  );
  t.equal(cut.length, 1);
  t.match(
    cut[0],
    /^overlap: u0#1 and u1#1 in vehicle 0: a circle and a rectangle reach [0-9.]+ cm into each other over 50 cm of height\./,
  );
});

t.test('a lying drum-shaped cylinder stays its bounding box', async (t) => {
  // Orientation lhw lays the height along z: the footprint is the rectangle, so touching boxes overlap.
  const p = plan(CONTAINER_20FT, [
    { x: 0, y: 0, z: 0, orientation: 'lhw' },
    { x: 50, y: 0, z: 50, box: { length: 20, width: 20, height: 20 } },
  ]);
  p.model.items[0]!.shape = 'cylinder';
  t.match(rules(p), [/^overlap: u0#1 and u1#1/]);
});

const circle = (cx: number, cz: number, r: number): Footprint => ({ kind: 'circle', cx, cz, r });
const rect = (x0: number, z0: number, x1: number, z1: number): Footprint => ({ kind: 'rect', x0, x1, z0, z1 });

t.test('shared areas and coverage of hand-worked shapes', async (t) => {
  t.equal(sharedArea(circle(0, 0, 10), circle(0, 0, 10)), Math.PI * 100);
  t.equal(sharedArea(circle(0, 0, 10), circle(20, 0, 10)), 0);
  // Two unit circles with centres 1 apart share 2π/3 − √3/2.
  t.ok(Math.abs(sharedArea(circle(0, 0, 1), circle(1, 0, 1)) - ((2 * Math.PI) / 3 - Math.sqrt(3) / 2)) < 1e-12);
  t.ok(
    Math.abs(sharedArea(circle(0, 0, 10), rect(-20, -20, 20, 20)) - Math.PI * 100) < 1e-2,
    'circle within a rectangle',
  );
  t.ok(Math.abs(sharedArea(circle(0, 0, 10), rect(0, -20, 20, 20)) - Math.PI * 50) < 1e-2, 'half a circle');
  t.equal(coveredShare(circle(0, 0, 10), [rect(-10, -10, 10, 10)]), 1);
  t.equal(
    coveredShare(circle(0, 0, 10), [rect(-10, -10, 0, 10), rect(0, -10, 10, 10)]),
    1,
    'two rectangles meeting under the centre',
  );
  t.ok(
    coveredShare(circle(0, 0, 10), [rect(-10, -10, -0.3, 10), rect(0.3, -10, 10, 10)]) < 1,
    'a 6 mm gap between two supports is found',
  );
  t.ok(penetration(circle(0, 0, 10), circle(20, 0, 10)) <= 0, 'touching circles do not overlap');
});

t.test('property: the sampled coverage of a circle by one rectangle is its shared area share within 2 %', async () => {
  fc.assert(
    fc.property(
      fc.double({ min: -20, max: 20, noNaN: true }),
      fc.double({ min: -20, max: 20, noNaN: true }),
      fc.double({ min: 1, max: 40, noNaN: true }),
      fc.double({ min: 1, max: 40, noNaN: true }),
      (x0, z0, w, d) => {
        const c = circle(0, 0, 15);
        const r = rect(x0, z0, x0 + w, z0 + d);
        const exact = sharedArea(c, r) / footprintArea(c);
        // Two rectangles side by side force the sampled path (a circle among the lowers would too).
        const sampled = coveredShare(c, [r, rect(1000, 1000, 1001, 1001)]);
        return Math.abs(sampled - exact) < 0.02;
      },
    ),
    { numRuns: 200, seed: 11 },
  );
});
