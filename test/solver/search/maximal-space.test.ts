import t from 'tap';
import { initialSpace, occupy, type Space } from '../../../solver/search/maximal-space.js';

const MIN = { x: 1, y: 1, z: 1 };
const box = (
  x0: number,
  y0: number,
  z0: number,
  x1: number,
  y1: number,
  z1: number,
  supportsAbove = true,
  capacityAbove = Infinity,
) => ({
  x0,
  y0,
  z0,
  x1,
  y1,
  z1,
  topLevel: 1,
  supportsAbove,
  capacityAbove,
  palletTop: true,
  densityAbove: Infinity,
  weightAbove: Infinity,
});
const key = (s: Space): string => `${s.x0},${s.y0},${s.z0}-${s.x1},${s.y1},${s.z1}@${s.level}`;
const sorted = (ss: Pick<Space, 'x0' | 'y0' | 'z0' | 'x1' | 'y1' | 'z1' | 'level'>[]): string[] =>
  ss.map((s) => key({ ...s, capacity: 0, palletBase: true, bearerDensity: Infinity, bearerWeight: Infinity })).sort();

t.test('a box in the corner leaves the two side spaces and a space on its top face only', async (t) => {
  const spaces = occupy([initialSpace(100, 50, 40)], box(0, 0, 0, 20, 10, 30), MIN);
  t.same(
    sorted(spaces),
    sorted([
      { x0: 20, y0: 0, z0: 0, x1: 100, y1: 40, z1: 50, level: 0 },
      { x0: 0, y0: 0, z0: 30, x1: 100, y1: 40, z1: 50, level: 0 },
      { x0: 0, y0: 10, z0: 0, x1: 20, y1: 40, z1: 30, level: 1 },
    ]),
  );
});

t.test('tops of two neighbouring boxes at the same height are joined into one space', async (t) => {
  let spaces = occupy([initialSpace(100, 50, 40)], box(0, 0, 0, 20, 10, 50), MIN);
  spaces = occupy(spaces, box(20, 0, 0, 50, 10, 50), MIN);
  const above = spaces.filter((s) => s.y0 === 10);
  t.same(sorted(above), ['0,10,0-50,40,50@1']);
});

t.test('tops at different heights are not joined', async (t) => {
  let spaces = occupy([initialSpace(100, 50, 40)], box(0, 0, 0, 20, 10, 50), MIN);
  spaces = occupy(spaces, box(20, 0, 0, 50, 12, 50), MIN);
  t.same(sorted(spaces.filter((s) => s.y0 > 0)), ['0,10,0-20,40,50@1', '20,12,0-50,40,50@1']);
});

t.test('nothing may rest on a box that supports nothing, and too small spaces are dropped', async (t) => {
  const spaces = occupy([initialSpace(100, 50, 40)], box(0, 0, 0, 20, 40, 49.5, false), MIN);
  t.same(sorted(spaces), ['20,0,0-100,40,50@0']);
});

t.test('a blocked floor column splits the floor into maximal spaces around it', async (t) => {
  const spaces = occupy([initialSpace(100, 50, 40)], box(40, 0, 10, 60, 40, 20, false), MIN);
  t.same(
    sorted(spaces),
    sorted([
      { x0: 0, y0: 0, z0: 0, x1: 40, y1: 40, z1: 50, level: 0 },
      { x0: 60, y0: 0, z0: 0, x1: 100, y1: 40, z1: 50, level: 0 },
      { x0: 0, y0: 0, z0: 0, x1: 100, y1: 40, z1: 10, level: 0 },
      { x0: 0, y0: 0, z0: 20, x1: 100, y1: 40, z1: 50, level: 0 },
    ]),
  );
});

t.test('a space keeps the capacity of the surface under it; a join takes the lower one', async (t) => {
  let spaces = occupy([initialSpace(100, 50, 40, 0.5)], box(0, 0, 0, 20, 10, 50, true, 0.2), MIN);
  t.same(
    spaces.filter((s) => s.y0 === 0).map((s) => s.capacity),
    [0.5],
    'the floor beside the box keeps the floor capacity',
  );
  t.same(
    spaces.filter((s) => s.y0 === 10).map((s) => s.capacity),
    [0.2],
    'the top of the box has the capacity it was given',
  );
  spaces = occupy(spaces, box(20, 0, 0, 50, 10, 50, true, 0.3), MIN);
  const above = spaces.filter((s) => s.y0 === 10);
  t.same(
    above.map((s) => [key(s), s.capacity]).sort(),
    [
      ['0,10,0-50,40,50@1', 0.2],
      ['20,10,0-50,40,50@1', 0.3],
    ],
    'the joined top takes the tighter capacity; the stronger top alone stays a space of its own',
  );
  const parts = spaces.filter((s) => s.y0 === 10 || s.x0 >= 50);
  t.ok(
    parts.some((s) => s.x0 === 50 && s.capacity === 0.5),
    'the floor space left over keeps the floor capacity',
  );
});
