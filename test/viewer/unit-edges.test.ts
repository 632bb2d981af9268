/**
 * Outlines of the viewer's units (viewer/src/unit-edges.ts): box edges, the
 * end circles of round units on their radius at both ends of their axis, and the offsets that
 * turn "steps 1..s" into one draw range.
 */
import t from 'tap';
import type { Placement } from '../../domain/pack/plan.js';
import {
  CIRCLE_SEGMENTS,
  edgeVertexCount,
  roundAxis,
  vertexOffsets,
  writeUnitEdges,
} from '../../viewer/src/unit-edges.js';
import { DRUM, containerOfDrums, mixedTrailer } from '../pdf/round-fixture.js';

/** The vertices of `p`'s outline as [x, y, z] triples. */
function outline(p: Placement, round: boolean): number[][] {
  const buf = new Float32Array(edgeVertexCount(round) * 3);
  t.equal(writeUnitEdges(p, round, buf, 0), edgeVertexCount(round));
  return Array.from({ length: buf.length / 3 }, (_, i) => [buf[3 * i]!, buf[3 * i + 1]!, buf[3 * i + 2]!]);
}

t.test('a box: 12 edges on its corners', async (t) => {
  const p = mixedTrailer().placements.find((q) => q.item_id === 'pal-eur')!;
  const v = outline(p, false);
  t.equal(v.length, 24);
  for (const [x, y, z] of v) {
    t.ok([p.x, p.x + p.length].includes(x!) && [p.y, p.y + p.height].includes(y!) && [p.z, p.z + p.width].includes(z!));
  }
});

t.test('an upright drum: two circles of its radius at the bottom and the top', async (t) => {
  const p = containerOfDrums().placements[5]!;
  const v = outline(p, true);
  t.equal(v.length, 4 * CIRCLE_SEGMENTS);
  const cx = p.x + DRUM.radius,
    cz = p.z + DRUM.radius;
  t.same(new Set(v.map((q) => q[1])), new Set([0, DRUM.height]), 'at the floor and the top');
  const worst = Math.max(...v.map(([x, , z]) => Math.abs(Math.hypot(x! - cx, z! - cz) - DRUM.radius)));
  t.ok(worst < 1e-3, `on the radius (off by ${worst.toExponential(1)} cm)`);
  t.ok(
    v.some(([x]) => Math.abs(x! - p.x) < 1e-3),
    "touches the box's side",
  );
});

t.test('lying rolls: circles at the ends of the axis along x or z', async (t) => {
  const rolls = mixedTrailer().placements.filter((q) => q.item_id === 'roll');
  const along = rolls.find((q) => q.orientation === 'hwl')!;
  const across = rolls.find((q) => q.orientation === 'lhw')!;
  t.equal(roundAxis(along), 0);
  t.equal(roundAxis(across), 2);
  t.equal(roundAxis({ orientation: 'wlh' }), 1);
  t.same(new Set(outline(along, true).map((q) => q[0])), new Set([along.x, along.x + along.length]));
  t.same(
    new Set(outline(across, true).map((q) => Math.fround(q[2]!))),
    new Set([Math.fround(across.z), Math.fround(across.z + across.width)]),
  );
  const [, cy, cz] = [0, along.y + 30, along.z + 30];
  t.ok(
    outline(along, true).every(([, y, z]) => Math.abs(Math.hypot(y! - cy, z! - cz) - 30) < 1e-3),
    'radius 30 about the axis',
  );
});

t.test("offsets: every unit's outline in step order, the total last", async (t) => {
  const units = mixedTrailer().placements;
  const round = (p: Placement) => p.item_id !== 'pal-eur';
  const off = vertexOffsets(units, round);
  t.equal(off.length, units.length + 1);
  t.equal(off[6], 6 * 24, 'six pallets first');
  t.equal(off[units.length], 6 * 24 + (units.length - 6) * 4 * CIRCLE_SEGMENTS);
});
