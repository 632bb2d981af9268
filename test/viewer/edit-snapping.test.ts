/**
 * The arithmetic of moving a unit by hand in the viewer's edit mode (viewer/src/edit/snapping.ts):
 * snap targets (walls, neighbours' faces, tops), snapping a drop within the tolerance, keyboard
 * steps that stop at faces, the arrow keys seen from the camera, the next allowed orientation.
 * Figures worked out by hand in the comments; a property: a snapped drop always lies inside the
 * space and a keyboard step never passes over a face.
 */
import t from 'tap';
import fc from 'fast-check';
import {
  arrowDirection,
  keepInside,
  nextOrientation,
  nudge,
  nudgeBox,
  snapBox,
  snapTargets,
  snapTolerance,
  snapValue,
  type CargoSpace,
  type SolidBox,
} from '../../viewer/src/edit/snapping.js';

const space: CargoSpace = { length: 600, width: 240, height: 250, deckHeight: null };
const box = (x: number, y: number, z: number, length = 100, width = 50, height = 40): SolidBox => ({
  x,
  y,
  z,
  length,
  width,
  height,
});

t.test('snap targets along x: walls, then butting and lining up with each neighbour of the same layer', async (t) => {
  const moving = box(150, 0, 0);
  const neighbour = box(20, 0, 100, 80, 50, 40); // x 20..100
  const above = box(400, 100, 0); // y 100..140: another layer, ignored
  t.same(snapTargets(moving, [neighbour, above], space, 'x'), [
    0, // front wall
    500, // door: 600 − 100
    100, // butting its door-side face
    -80, // butting its front face: 20 − 100
    20, // front faces lined up
    0, // door-side faces lined up: 100 − 100
  ]);
  // A unit it would stand on counts (its top is the moving unit's bottom).
  const carrier = box(300, 0, 0, 120, 50, 40);
  const onTop = box(310, 40, 0);
  t.same(snapTargets(onTop, [carrier], space, 'x'), [0, 500, 420, 200, 300, 320]);
});

t.test('snap targets along y: floor, deck, the tops under the footprint and just under what is over it', async (t) => {
  const deck: CargoSpace = { ...space, deckHeight: 130 };
  const moving = box(0, 10, 0); // footprint x 0..100, z 0..50
  const under = box(50, 0, 0, 100, 50, 40); // overlaps the footprint: top 40
  const over = box(0, 200, 0, 50, 50, 30); // overlaps: on it at 230, or under it at 200 − 40 = 160
  const aside = box(300, 0, 0); // not under the footprint
  // 0 − 40 (under the unit below) is under the floor: left out.
  t.same(snapTargets(moving, [under, over, aside], deck, 'y'), [0, 210, 130, 40, 230, 160]);
});

t.test('snapValue: the nearest target within the tolerance, else the value', async (t) => {
  t.equal(snapValue(104, [0, 100, 110], 5), 100, '4 cm from 100, 6 from 110');
  t.equal(snapValue(106, [0, 100, 110], 5), 110);
  t.equal(snapValue(120, [0, 100, 110], 5), 120, 'nothing within 5 cm');
  t.equal(snapTolerance({ length: 100, width: 50 }), 7.5, '15 % of the smaller side');
  t.equal(snapTolerance({ length: 10, width: 10 }), 3, 'at least 3 cm');
  t.equal(snapTolerance({ length: 200, width: 200 }), 15, 'at most 15 cm');
});

t.test('snapBox: a drop near a neighbour butts against it; a drop past the door is pulled back in', async (t) => {
  const neighbour = box(0, 0, 0); // x 0..100, z 0..50
  // Dropped 4 cm from its door-side face and 3 cm off the right wall: snaps to x 100, z 0.
  t.same(snapBox(box(104, 0, 3), [neighbour], space), box(100, 0, 0));
  // Dropped with its end 20 cm through the door, far from anything else: kept inside.
  t.same(snapBox(box(520, 0, 120), [neighbour], space), box(500, 0, 120));
  // Too far from any face (tolerance 7.5 cm): stays where dropped.
  t.same(snapBox(box(130, 0, 90), [neighbour], space), box(130, 0, 90));
});

t.test('nudge: a keyboard step stops at the first face it reaches and at the walls', async (t) => {
  t.equal(nudge(0, 10, [0, 500, 105], 500), 10, 'nothing crossed');
  t.equal(nudge(100, 10, [0, 500, 105], 500), 105, 'stops at the face 5 cm ahead');
  t.equal(nudge(105, 10, [0, 500, 105], 500), 115, 'from the face on, it goes on');
  t.equal(nudge(5, -10, [0, 500], 500), 0, 'stops at the front wall');
  t.equal(nudge(495, 10, [0, 500], 500), 500, 'stops at the door');
  // Along y: PageUp from the floor next to a 40 cm high unit under the footprint stops on its top.
  const under = box(50, 0, 0);
  t.same(nudgeBox(box(0, 30, 0), [under], space, 'y', 20), box(0, 40, 0));
  t.same(nudgeBox(box(0, 40, 0), [under], space, 'y', -10), box(0, 30, 0));
});

t.test('arrow keys follow the camera: up is away from the viewer along the nearest floor axis', async (t) => {
  // The default view looks from above the door's left corner toward the front wall: forward ≈ (−1, −0.75).
  const forward = { x: -1, z: -0.75 };
  t.same(arrowDirection('ArrowUp', forward), { axis: 'x', sign: -1 }, 'toward the front wall');
  t.same(arrowDirection('ArrowDown', forward), { axis: 'x', sign: 1 }, 'toward the door');
  t.same(arrowDirection('ArrowRight', forward), { axis: 'z', sign: -1 }, 'toward the right wall');
  t.same(arrowDirection('ArrowLeft', forward), { axis: 'z', sign: 1 });
  // Looking across the vehicle from its right side (forward +z): up moves toward the left wall.
  t.same(arrowDirection('ArrowUp', { x: 0.1, z: 1 }), { axis: 'z', sign: 1 });
  t.same(arrowDirection('ArrowRight', { x: 0.1, z: 1 }), { axis: 'x', sign: -1 });
  t.equal(arrowDirection('Enter', forward), null);
});

t.test('turning: the next allowed orientation, round; a turned unit is kept inside', async (t) => {
  t.equal(nextOrientation(['lwh', 'wlh'], 'lwh'), 'wlh');
  t.equal(nextOrientation(['lwh', 'wlh'], 'wlh'), 'lwh');
  t.equal(nextOrientation(['lwh'], 'lwh'), 'lwh', 'one orientation: stays');
  t.equal(nextOrientation(['wlh', 'lhw'], 'lwh'), 'wlh', 'not in the list: the first');
  // 50 × 100 after the turn at z 200 would reach z 300 > 240: pushed back to 140.
  t.same(keepInside(box(10, 0, 200, 50, 100, 40), space), box(10, 0, 140, 50, 100, 40));
});

t.test('property: a snapped drop lies inside the space; a step never passes over a face', async (t) => {
  const coordinate = fc.integer({ min: -100, max: 700 });
  const size = fc.integer({ min: 10, max: 200 });
  const arbBox = fc.record({
    x: coordinate,
    y: fc.constant(0),
    z: coordinate,
    length: size,
    width: fc.integer({ min: 10, max: 200 }),
    height: size,
  });
  const drops = (): void =>
    fc.assert(
      fc.property(arbBox, fc.array(arbBox, { maxLength: 6 }), (b, others) => {
        const s = snapBox(b, others, space);
        return (
          s.x >= 0 &&
          s.z >= 0 &&
          s.x + s.length <= space.length + 1e-9 &&
          s.z + s.width <= space.width + 1e-9 &&
          s.y === b.y
        );
      }),
    );
  const steps = (): void =>
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 500 }),
        fc.integer({ min: -50, max: 50 }).filter((d) => d !== 0),
        fc.array(fc.integer({ min: 0, max: 500 }), { maxLength: 8 }),
        (from, delta, targets) => {
          const to = nudge(from, delta, targets, 500);
          const lo = Math.min(from, to),
            hi = Math.max(from, to);
          return targets.every((f) => !(f > lo && f < hi)) && to >= 0 && to <= 500;
        },
      ),
    );
  t.doesNotThrow(drops, 'a snapped drop lies inside the space (100 random drops)');
  t.doesNotThrow(steps, 'a keyboard step never passes over a face (100 random steps)');
});
