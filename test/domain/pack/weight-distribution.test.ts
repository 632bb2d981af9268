import t from 'tap';
import { weightDistribution } from '../../../domain/pack/weight-distribution.js';

t.test('a unit over two sections splits its weight by the length over each', async (t) => {
  const d = weightDistribution([{ x: 50, length: 100, weight: 200 }], 250);
  t.same(
    d.sections.map((s) => [s.from, s.to, s.kg]),
    [
      [0, 100, 100],
      [100, 200, 100],
      [200, 250, 0],
    ],
  );
  t.equal(d.totalKg, 200);
  t.equal(d.cogX, 100);
  t.equal(d.cogOffset, -25);
  t.equal(d.peakKgPerMetre, 100);
});

t.test('a short last section gives kg per metre of its own length', async (t) => {
  const d = weightDistribution([{ x: 200, length: 50, weight: 100 }], 250);
  t.equal(d.sections[2]!.kg, 100);
  t.equal(d.sections[2]!.kgPerMetre, 200);
});

t.test('nothing weighing gives no centre of gravity', async (t) => {
  const d = weightDistribution([{ x: 0, length: 10, weight: 0 }], 100);
  t.equal(d.cogX, null);
  t.equal(d.cogOffset, null);
  t.equal(d.peakKgPerMetre, 0);
  t.throws(() => weightDistribution([], 0), RangeError);
});
