import fc from 'fast-check';
import t from 'tap';
import { type SpaceBox, paintersOrder, project, projectionFor, visibleFaces } from '../../pdf/isometric.js';
import { boundsOf, screenBounds } from '../helpers/screen-bounds.js';

const box = (x: number, y: number, z: number, length: number, height: number, width: number): SpaceBox => ({
  x,
  y,
  z,
  length,
  height,
  width,
});

const views = [
  { azimuth: 30, elevation: 30 },
  { azimuth: 20, elevation: 30 },
  { azimuth: 45, elevation: 35.264 },
];

/** Position of each box index in the drawing order. */
function rank(order: number[]): Map<number, number> {
  return new Map(order.map((i, pos) => [i, pos]));
}

t.test('projection: x runs right, y up, z toward the viewer (down-left); viewer on +x, +y, +z', async (t) => {
  const p = projectionFor({ azimuth: 30, elevation: 30 });
  const [u0, v0] = project(p, 0, 0, 0);
  const [ux, vx] = project(p, 100, 0, 0);
  const [uy, vy] = project(p, 0, 100, 0);
  const [uz, vz] = project(p, 0, 0, 100);
  t.ok(ux > u0 && vx < v0, 'x → right and slightly down');
  t.equal(uy, u0);
  t.ok(vy > v0, 'y → up');
  t.ok(uz < u0 && vz < v0, 'z → left and down');
  t.ok(p.toViewer.every((c) => c > 0));
  t.throws(() => projectionFor({ azimuth: 0, elevation: 30 }), RangeError);
  t.throws(() => projectionFor({ azimuth: 30, elevation: 90 }), RangeError);
});

t.test('visible faces: top at y + height, door face at x + length, side face at z + width', async (t) => {
  const p = projectionFor({ azimuth: 30, elevation: 30 });
  const b = box(10, 20, 30, 40, 50, 60);
  const f = visibleFaces(p, b);
  t.same(f.top[0], project(p, 10, 70, 30));
  t.same(f.door[0], project(p, 50, 20, 30));
  t.same(f.side[0], project(p, 10, 20, 90));
  const sb = screenBounds(p, b);
  for (const q of [...f.top, ...f.door, ...f.side]) {
    t.ok(q[0] >= sb.uMin - 1e-9 && q[0] <= sb.uMax + 1e-9 && q[1] >= sb.vMin - 1e-9 && q[1] <= sb.vMax + 1e-9);
  }
  // The three visible faces cover the whole outline: they reach every side of the bounds.
  const faces = boundsOf([...f.top, ...f.door, ...f.side]);
  for (const k of ['uMin', 'uMax', 'vMin', 'vMax'] as const)
    t.ok(Math.abs(faces[k] - sb[k]) < 1e-9, `faces reach ${k}`);
});

t.test('painter order on small cases', async (t) => {
  for (const view of views) {
    const p = projectionFor(view);
    // 0 behind 1 along x (1 is nearer the door, which faces the viewer).
    let r = rank(paintersOrder(p, [box(0, 0, 0, 100, 100, 100), box(100, 0, 0, 100, 100, 100)]));
    t.ok(r.get(0)! < r.get(1)!, `x: the box nearer the door is drawn later (${view.azimuth}°)`);
    r = rank(paintersOrder(p, [box(100, 0, 0, 100, 100, 100), box(0, 0, 0, 100, 100, 100)]));
    t.ok(r.get(1)! < r.get(0)!, 'x, listed the other way round');
    // A box on top is drawn after the one below, whatever the list order.
    r = rank(paintersOrder(p, [box(0, 100, 0, 100, 50, 100), box(0, 0, 0, 100, 100, 100)]));
    t.ok(r.get(1)! < r.get(0)!, 'y: the upper box is drawn after the lower one');
    // Toward the left wall (+z) is toward the viewer.
    r = rank(paintersOrder(p, [box(0, 0, 120, 100, 100, 100), box(0, 0, 0, 100, 100, 100)]));
    t.ok(r.get(1)! < r.get(0)!, 'z: the box nearer the left wall is drawn later');
    // A thin tall post in front of the end of a long low box: sorting by centre depth would put
    // the long box (centre nearer the door) last; the separating axis z decides.
    r = rank(paintersOrder(p, [box(0, 0, 100, 10, 250, 10), box(0, 0, 0, 600, 20, 100)]));
    t.ok(r.get(1)! < r.get(0)!, 'post in front of a long low box is drawn after it');
  }
});

t.test('painter order: every pair whose outlines overlap is drawn back to front (property)', async (t) => {
  // Random boxes on a grid of 50 cm cells, at most one box per cell run, so none overlap.
  const cells = fc.uniqueArray(
    fc.record({
      i: fc.integer({ min: 0, max: 5 }),
      j: fc.integer({ min: 0, max: 3 }),
      k: fc.integer({ min: 0, max: 3 }),
      dl: fc.integer({ min: 1, max: 3 }),
      dh: fc.integer({ min: 1, max: 2 }),
      dw: fc.integer({ min: 1, max: 2 }),
    }),
    { minLength: 1, maxLength: 25, selector: (c) => `${c.i},${c.j},${c.k}` },
  );
  fc.assert(
    fc.property(cells, fc.constantFrom(...views), (raw, view) => {
      // Keep boxes that do not overlap any kept box (greedy), so the set is valid.
      const kept: SpaceBox[] = [];
      for (const c of raw) {
        const b = box(c.i * 50, c.j * 50, c.k * 50, c.dl * 50, c.dh * 50, c.dw * 50);
        const clash = kept.some(
          (o) =>
            b.x < o.x + o.length &&
            o.x < b.x + b.length &&
            b.y < o.y + o.height &&
            o.y < b.y + b.height &&
            b.z < o.z + o.width &&
            o.z < b.z + b.width,
        );
        if (!clash) kept.push(b);
      }
      const p = projectionFor(view);
      const order = paintersOrder(p, kept);
      if (order.length !== kept.length || new Set(order).size !== kept.length) return false;
      const r = rank(order);
      // Independent oracle: if a is entirely behind b on an axis (viewer on +x, +y, +z) and
      // their screen bounds overlap with area, b must be drawn after a, unless another axis says the reverse
      // (then their outlines cannot overlap).
      for (let a = 0; a < kept.length; a++) {
        for (let b = 0; b < kept.length; b++) {
          if (a === b) continue;
          const A = kept[a]!;
          const B = kept[b]!;
          const behind = A.x + A.length <= B.x || A.y + A.height <= B.y || A.z + A.width <= B.z;
          const ahead = B.x + B.length <= A.x || B.y + B.height <= A.y || B.z + B.width <= A.z;
          if (!behind || ahead) continue;
          if (outlinesOverlap(p, A, B) && r.get(a)! > r.get(b)!) return false;
        }
      }
      return true;
    }),
    { numRuns: 300, seed: 42 },
  );
  t.pass('300 random scenes drawn in a valid order');
});

/** Exact overlap of two projected boxes: sample interior points of A's outline against B's faces. */
function outlinesOverlap(p: ReturnType<typeof projectionFor>, A: SpaceBox, B: SpaceBox): boolean {
  const polys = (b: SpaceBox) => Object.values(visibleFaces(p, b));
  const inside = (poly: ReadonlyArray<readonly [number, number]>, q: [number, number]) => {
    let s = 0;
    for (let i = 0; i < poly.length; i++) {
      const a = poly[i]!;
      const c = poly[(i + 1) % poly.length]!;
      const cr = (c[0] - a[0]) * (q[1] - a[1]) - (c[1] - a[1]) * (q[0] - a[0]);
      if (Math.abs(cr) < 1e-7) return false;
      const sg = Math.sign(cr);
      if (s === 0) s = sg;
      else if (sg !== s) return false;
    }
    return true;
  };
  const bFaces = polys(B);
  // Sample a grid of points on each visible face of A (strict interiors).
  for (const face of polys(A)) {
    const [p0, p1, , p3] = face as [
      readonly [number, number],
      readonly [number, number],
      unknown,
      readonly [number, number],
    ];
    for (let s = 1; s < 10; s++) {
      for (let q = 1; q < 10; q++) {
        const pt: [number, number] = [
          p0[0] + ((p1[0] - p0[0]) * s) / 10 + ((p3[0] - p0[0]) * q) / 10,
          p0[1] + ((p1[1] - p0[1]) * s) / 10 + ((p3[1] - p0[1]) * q) / 10,
        ];
        if (bFaces.some((f) => inside(f, pt))) return true;
      }
    }
  }
  return false;
}
