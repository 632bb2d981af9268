import t from 'tap';
import { loadingSteps, restsOn } from '../../../solver/search/loading-steps.js';

const b = (x: number, y: number, z: number, dx: number, dy: number, dz: number) => ({ x, y, z, dx, dy, dz });

t.test('a unit rests on the units whose top is at its bottom and that overlap its footprint', async (t) => {
  const boxes = [
    b(0, 0, 0, 10, 10, 10),
    b(10, 0, 0, 10, 10, 10),
    b(5, 10, 0, 10, 5, 10),
    b(20, 0, 0, 10, 5, 10),
    b(20, 10, 0, 10, 5, 10),
  ];
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

t.test('in one slice the crew finishes the block of one kind before the next kind', async (t) => {
  const k = (kind: number, x: number, y: number, z: number) => ({ ...b(x, y, z, 10, 10, 10), kind });
  // Slice x = 0: a column of kind 1 at z = 0 (2 high) and kind 2 at z = 10, 20 (2 high); then kind 1 at x = 10.
  const boxes = [
    k(1, 0, 0, 0),
    k(1, 0, 10, 0),
    k(2, 0, 0, 10),
    k(2, 0, 0, 20),
    k(2, 0, 10, 10),
    k(2, 0, 10, 20),
    k(1, 10, 0, 0),
  ];
  t.same(loadingSteps(boxes), [1, 2, 3, 4, 5, 6, 7], 'column of 1, then the 2 × 2 block of 2');
  const plain = boxes.map(({ kind: _kind, ...rest }) => rest);
  t.same(loadingSteps(plain), [1, 4, 2, 3, 5, 6, 7], 'without kinds: layer by layer across the width');
});
