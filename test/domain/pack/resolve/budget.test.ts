import t from 'tap';
import { computeBudgetMs, maxVehicles, minimumVehicles } from '../../../../domain/pack/resolve/budget.js';

t.test('compute budget', async (t) => {
  const cases: [timeLimit: number, units: number, maxSeconds: number, ms: number][] = [
    [10, 100, 90, 10_000],
    [200, 100, 90, 90_000], // capped at the organization's limit
    [0.0004, 1, 90, 1], // rounded up to a whole ms
    [2.5, 1, 90, 2500],
    [0, 0, 90, 2000], // automatic: 2 s floor
    [0, 20, 90, 2300], // 2000 + 15 · 20
    [0, 1000, 90, 17_000],
    [0, 2000, 90, 30_000], // automatic ceiling
    [0, 5000, 90, 30_000],
    [0, 2000, 10, 10_000], // automatic, capped at the limit
    [0, 10, 1, 1000],
  ];
  for (const [tl, units, max, ms] of cases)
    t.equal(computeBudgetMs(tl, units, max), ms, `time_limit ${tl}, ${units} units, cap ${max} s`);
});

t.test('vehicle limit', async (t) => {
  t.equal(maxVehicles('auto', 3, 20), 20);
  t.equal(maxVehicles('fleet_only', 3, 20), 3);
  t.equal(maxVehicles('fleet_only', 30, 20), 20);
});

t.test('fewest vehicles', async (t) => {
  const big = { largestVolume: 1000, largestPayload: 100 };
  t.equal(minimumVehicles({ volume: 0, weight: 0, ...big }, false, 20), 1);
  t.equal(minimumVehicles({ volume: 2500, weight: 10, ...big }, false, 20), 3);
  t.equal(minimumVehicles({ volume: 3000, weight: 10, ...big }, false, 20), 3, 'exactly full needs no extra vehicle');
  t.equal(
    minimumVehicles({ volume: 0.1 + 0.2, weight: 0, largestVolume: 0.3, largestPayload: 1 }, false, 20),
    1,
    'float noise ignored',
  );
  t.equal(minimumVehicles({ volume: 10, weight: 450, ...big }, false, 20), 5);
  t.equal(minimumVehicles({ volume: 10, weight: 450, ...big }, true, 20), 1, 'allow_overweight ignores weight');
  t.equal(minimumVehicles({ volume: 99_000, weight: 0, ...big }, false, 20), 20, 'capped at maxVehicles');
});
