import t from 'tap';
import { loadingSteps, restsOn } from '../../../solver/search/loading-steps.js';

const b = (x: number, y: number, z: number, dx: number, dy: number, dz: number) => ({ x, y, z, dx, dy, dz });

t.test('a unit rests on the units whose top is at its bottom and that overlap its footprint', async (t) => {
  const boxes = [b(0, 0, 0, 10, 10, 10), b(10, 0, 0, 10, 10, 10), b(5, 10, 0, 10, 5, 10), b(20, 0, 0, 10, 5, 10), b(20, 10, 0, 10, 5, 10)];
  t.same(restsOn(boxes), [[], [], [0, 1], [], []]);
});

t.test('steps follow the front wall first and put every unit after its supports', async (t) => {
  // A unit on top of two deeper units: loaded once both are in, before a unit nearer the door.
  const boxes = [b(30, 0, 0, 10, 10, 10), b(10, 0, 0, 10, 10, 10), b(0, 0, 0, 10, 10, 10), b(5, 10, 0, 10, 10, 10)];
  t.same(loadingSteps(boxes), [4, 2, 1, 3]);
});

t.test('a unit with a deep x waits for a support nearer the door', async (t) => {
  const boxes = [b(0, 10, 0, 20, 10, 10), b(0, 0, 0, 10, 10, 10), b(10, 0, 0, 10, 10, 10), b(0, 0, 10, 10, 10, 10)];
  t.same(loadingSteps(boxes), [4, 1, 3, 2]);
});
