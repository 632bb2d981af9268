import t from 'tap';
import { balanceRemarks, evenKgPerMetre } from '../../../domain/pack/load-balance.js';
import { loadingMetres } from '../../../domain/pack/loading-metres.js';
import { weightDistribution } from '../../../domain/pack/weight-distribution.js';

/** `count` units of `kg` each, `length` cm long, end to end from x = `from` cm. */
const row = (from: number, count: number, length: number, kg: number) =>
  Array.from({ length: count }, (_, i) => ({ x: from + i * length, length, weight: kg }));

t.test("the issue's 7.5 t truck with all 2,800 kg at the front wall gets both remarks", async (t) => {
  const truck = { length: 620, maxWeight: 2800 };
  const units = [...row(0, 2, 80, 700), ...row(0, 2, 80, 700)];
  const r = balanceRemarks(weightDistribution(units, truck.length), truck);
  t.same(
    r.map((x) => x.kind),
    ['cog_offset', 'peak_load'],
  );
  t.equal(
    r[0]!.message,
    'Centre of gravity 2.3 m ahead of the middle (37 % of the length; limit 15 %): move weight toward the door.',
  );
  t.equal(
    r[1]!.message,
    "Up to 1,750 kg/m between 0 and 2 m: 3.9 × the payload spread evenly (452 kg/m; limit 2 ×). Check the vehicle's load distribution chart.",
  );
});

t.test('a semi-trailer with 24 t in its first 5 m', async (t) => {
  const semi = { length: 1360, maxWeight: 24_000 };
  const r = balanceRemarks(weightDistribution(row(0, 20, 25, 1200), semi.length), semi);
  t.same(
    r.map((x) => x.kind),
    ['cog_offset', 'peak_load'],
  );
  t.match(r[0]!.message, /^Centre of gravity 4\.3 m ahead of the middle \(32 %/);
  t.match(r[1]!.message, /^Up to 4,800 kg\/m between 0 and 5 m: 2\.7 ×/);
});

t.test('an even load and a light load: no remark', async (t) => {
  const semi = { length: 1360, maxWeight: 24_000 };
  t.same(balanceRemarks(weightDistribution(row(0, 17, 80, 1400), semi.length), semi), [], '17 × 1.4 t end to end');
  t.same(
    balanceRemarks(weightDistribution(row(0, 2, 80, 500), semi.length), semi),
    [],
    '1 t at the front wall: under 25 % of the payload',
  );
  t.same(balanceRemarks(weightDistribution([], semi.length), semi), [], 'empty');
  t.same(
    balanceRemarks(weightDistribution(row(0, 4, 100, 1400), semi.length), semi),
    [],
    '5.6 t (23 % of the payload) in the first 4 m',
  );
  t.same(
    balanceRemarks(weightDistribution(row(0, 4, 100, 1600), semi.length), semi).map((r) => r.kind),
    ['cog_offset'],
    '6.4 t (27 %) in the first 4 m',
  );
});

t.test('behind the middle: move weight toward the front wall; the limits are strict', async (t) => {
  const v = { length: 1000, maxWeight: 10_000 };
  const r = balanceRemarks(weightDistribution(row(800, 2, 100, 2000), v.length), v);
  t.match(r[0]!.message, /4 m behind the middle \(40 %.*toward the front wall/);
  // CoG exactly 15 % (150 cm) from the middle: no remark; 2 × the even load per metre exactly: no remark.
  const edge = balanceRemarks(weightDistribution([{ x: 600, length: 100, weight: 2000 }], v.length), v);
  t.same(edge, [], 'at the limits');
  t.equal(evenKgPerMetre(v), 1000);
});

t.test('loading metres: the floor length the load takes', async (t) => {
  t.equal(loadingMetres([]), 0);
  t.equal(
    loadingMetres([
      { x: 0, length: 120 },
      { x: 1240, length: 80 },
      { x: 600, length: 120 },
    ]),
    13.2,
  );
});
