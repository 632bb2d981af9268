import t from 'tap';
import fc from 'fast-check';
import type { PackModel } from '../../../domain/pack/plan.js';
import {
  GREEDY_STRATEGIES,
  RANDOM_PER_ROUND,
  beamRound,
  randomsPerRound,
  strategyAt,
} from '../../../solver/search/strategy.js';
import { truck } from '../verify/plan-fixture.js';

/** The fleet fields randomsPerRound reads: `quantities` copies of the fixture truck per definition. */
function fleet(
  packingMode: PackModel['packingMode'],
  maxVehicles: number,
  quantities: number[],
): Pick<PackModel, 'vehicles' | 'packingMode' | 'maxVehicles'> {
  return { packingMode, maxVehicles, vehicles: quantities.map((quantity) => ({ ...truck(), quantity })) };
}

const FIRST_BEAM = 2 * GREEDY_STRATEGIES;

t.test('random constructions only where the plan can hold more than one vehicle', async (t) => {
  t.equal(randomsPerRound(fleet('fleet_only', 1, [1])), 0, 'one container, as in the BR benchmark');
  t.equal(randomsPerRound(fleet('fleet_only', 5, [1])), 0, 'fleet_only with one copy listed');
  t.equal(randomsPerRound(fleet('fleet_only', 1, [3])), 0, 'three copies, but at most one vehicle');
  t.equal(randomsPerRound(fleet('auto', 1, [1])), 0, 'auto mode capped at one vehicle');
  t.equal(randomsPerRound(fleet('fleet_only', 5, [1, 1])), RANDOM_PER_ROUND, 'two vehicles listed');
  t.equal(randomsPerRound(fleet('fleet_only', 5, [2])), RANDOM_PER_ROUND, 'two copies of one vehicle');
  t.equal(randomsPerRound(fleet('auto', 3, [1])), RANDOM_PER_ROUND, 'auto mode may add copies');
});

t.test('without random constructions every lane position is the next, wider beam search', async (t) => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 2 ** 31 - 1 }), fc.integer({ min: 0, max: 40 }), (seed, k) => {
      const i = FIRST_BEAM + k;
      const s = strategyAt(seed, i, 0);
      if (s.beam < 1) return false;
      if (beamRound(i, 0) !== Math.floor(k / 2)) return false;
      // The same lane's next beam search does twice the work (width × branching).
      const next = strategyAt(seed, i + 2, 0);
      return next.beam * next.branch === 2 * s.beam * s.branch && next.name.split('-')[0] === s.name.split('-')[0];
    }),
  );
  t.equal(beamRound(FIRST_BEAM - 1, 0), -1, 'the greedy and pilot strategies come first');
  t.equal(strategyAt(7, FIRST_BEAM - 1, 0).beam, 0);
});

t.test(
  'with random constructions, round r of a lane has its beam and RANDOM_PER_ROUND · 2^r constructions after it',
  async (t) => {
    const lane = (i: number) => FIRST_BEAM + 2 * i;
    const kinds: string[] = [];
    for (let j = 0; j < 1 + 2 + 1 + 4 + 1; j++) kinds.push(strategyAt(11, lane(j)).beam > 0 ? 'beam' : 'random');
    t.same(kinds, ['beam', 'random', 'random', 'beam', 'random', 'random', 'random', 'random', 'beam']);
    t.same(
      [0, 1, 2, 3, 7, 8].map((j) => beamRound(lane(j))),
      [0, 0, 0, 1, 1, 2],
    );
    t.same(strategyAt(11, lane(3)), strategyAt(11, lane(3), RANDOM_PER_ROUND), 'the default is RANDOM_PER_ROUND');
  },
);
