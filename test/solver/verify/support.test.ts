import t from 'tap';
import { unionArea } from '../../../solver/verify/footprint.js';

t.test('unionArea counts overlapping rectangles once', async (t) => {
  t.equal(unionArea([]), 0);
  t.equal(unionArea([{ x0: 0, x1: 10, z0: 0, z1: 5 }]), 50);
  t.equal(
    unionArea([
      { x0: 0, x1: 10, z0: 0, z1: 10 },
      { x0: 5, x1: 15, z0: 5, z1: 15 },
    ]),
    175,
  );
  t.equal(
    unionArea([
      { x0: 0, x1: 10, z0: 0, z1: 10 },
      { x0: 2, x1: 4, z0: 2, z1: 4 },
    ]),
    100,
  );
  t.equal(
    unionArea([
      { x0: 0, x1: 10, z0: 0, z1: 4 },
      { x0: 0, x1: 10, z0: 6, z1: 10 },
    ]),
    80,
  );
});

t.test('unionArea of a 24 × 12 grid of 10 cm tiles under a 240 × 120 base is the whole base, quickly', async (t) => {
  const tiles = [];
  for (let i = 0; i < 24; i++)
    for (let k = 0; k < 12; k++) tiles.push({ x0: i * 10, x1: i * 10 + 10, z0: k * 10, z1: k * 10 + 10 });
  const start = performance.now();
  const area = unionArea(tiles);
  const ms = performance.now() - start;
  t.comment(`unionArea of ${tiles.length} tiles: ${ms.toFixed(1)} ms`);
  t.equal(area, 240 * 120);
  t.ok(ms < 1000);
});
