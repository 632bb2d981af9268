/**
 * Parameters of one construction of the search: how the next space is chosen, how blocks are
 * ranked and how much randomness (GRASP) is used.
 */
import type { PackModel } from '../../domain/pack/plan.js';
import { mixSeed, mulberry32, type Random } from './prng.js';

/**
 * `front`: the space with the smallest x (deepest), then lowest y, then closest to a side wall
 * (wall building from the front wall). `corner`: the space whose sorted distance vector to the
 * front corners is lexicographically smallest, ties to the larger volume (Parreño et al. 2008).
 */
export type SpaceRank = 'front' | 'corner';

/**
 * `volume`: the block of the largest volume. `fit`: the block leaving the smallest margins in the
 * space. `fitness`: the largest volume less the gaps around it that no units left can fill
 * (reach.ts).
 */
export type BlockScore = 'volume' | 'fit' | 'fitness';

/** One construction's parameters. */
export interface Strategy {
  name: string;
  spaceRank: SpaceRank;
  blockScore: BlockScore;
  /** Restricted candidate list as a fraction of the candidates (0 = greedy, take the best). */
  rcl: number;
  /** Pilot method: blocks tried with a greedy completion at each choice (0 = no look-ahead). */
  pilot: number;
  /** Beam search width (vehicle-load.ts beamLoad); 0 = a single construction path. */
  beam: number;
  /** Blocks tried per beam node. */
  branch: number;
  /** Also offer blocks one unit deep (wall slices). */
  wallSlices: boolean;
  /**
   * Also offer general blocks, units of several kinds joined (general-block.ts), when the job
   * has many kinds with few units each, or few kinds (JobContext.generalBlocks).
   */
  general: boolean;
  /** Seed of this construction's random stream. */
  seed: number;
}

const FIXED: Omit<Strategy, 'seed'>[] = [
  {
    name: 'corner-fitness',
    spaceRank: 'corner',
    blockScore: 'fitness',
    rcl: 0,
    pilot: 0,
    beam: 0,
    branch: 0,
    wallSlices: false,
    general: false,
  },
  {
    name: 'corner-volume',
    spaceRank: 'corner',
    blockScore: 'volume',
    rcl: 0,
    pilot: 0,
    beam: 0,
    branch: 0,
    wallSlices: false,
    general: false,
  },
  {
    name: 'front-fitness',
    spaceRank: 'front',
    blockScore: 'fitness',
    rcl: 0,
    pilot: 0,
    beam: 0,
    branch: 0,
    wallSlices: false,
    general: false,
  },
  {
    name: 'front-fit',
    spaceRank: 'front',
    blockScore: 'fit',
    rcl: 0,
    pilot: 0,
    beam: 0,
    branch: 0,
    wallSlices: false,
    general: false,
  },
  {
    name: 'front-volume',
    spaceRank: 'front',
    blockScore: 'volume',
    rcl: 0,
    pilot: 0,
    beam: 0,
    branch: 0,
    wallSlices: false,
    general: false,
  },
];

/** Strategies 0 … GREEDY_STRATEGIES − 1 are greedy, the next GREEDY_STRATEGIES their pilot variants (strategyOf). */
export const GREEDY_STRATEGIES = FIXED.length;

/** Blocks tried per node of the first beam searches; every third round doubles it, up to MAX_BRANCH. */
export const BEAM_BRANCH = 8;
const MAX_BRANCH = 32;
/** Width of the first beam searches; each round doubles it, except when the branching doubles. */
const FIRST_BEAM = 2;

/**
 * Width and branching of beam round `round` (0, 1, …): the work of a round (width × branching)
 * doubles from round to round; every third round the branching doubles instead of the width
 * (measured on BR1–2: branching 16 at width 256 fills 93.7 %, branching 8 at 256 93.0 %).
 */
export function beamShape(round: number): { beam: number; branch: number } {
  const branch = Math.min(MAX_BRANCH, BEAM_BRANCH * 2 ** Math.floor(round / 3));
  const beam = Math.max(1, Math.round((FIRST_BEAM * 2 ** Math.min(round, 30) * BEAM_BRANCH) / branch));
  return { beam, branch };
}

/**
 * The beam searches' variants: the best on BR1–7 (corner-fitness), and corner-volume with every
 * block shape (wall slices), which helps weakly heterogeneous loads (BR1: +1.3 points at width 64)
 * and costs strongly heterogeneous ones (BR5, BR7: −0.8).
 */
const BEAM_VARIANTS: { fixed: number; wallSlices: boolean; general: boolean }[] = [
  { fixed: 0, wallSlices: false, general: true },
  { fixed: 1, wallSlices: true, general: true },
];

/**
 * Random constructions after beam round r of a lane: RANDOM_PER_ROUND · 2^r (their share of the
 * time stays about even). They diversify the fleet: which units go to which vehicle.
 */
export const RANDOM_PER_ROUND = 2;

/**
 * Random constructions per beam round (times 2^r) for a job: none when the plan can hold at most
 * one vehicle, for there the beams always load more (BR1–15, 45 instances at 10 s: no random
 * construction was ever the best plan) and the time is theirs; else RANDOM_PER_ROUND.
 */
export function randomsPerRound(model: Pick<PackModel, 'vehicles' | 'packingMode' | 'maxVehicles'>): number {
  const slots =
    model.packingMode === 'fleet_only'
      ? Math.min(
          model.maxVehicles,
          model.vehicles.reduce((n, v) => n + v.quantity, 0),
        )
      : model.maxVehicles;
  return slots <= 1 ? 0 : RANDOM_PER_ROUND;
}

/**
 * Where position `j` of a lane falls: its beam round, and 0 for the beam itself or 1, 2, … for
 * the random constructions after it (`randoms` · 2^r after round r).
 */
function lanePosition(j: number, randoms: number): { round: number; within: number } {
  if (randoms === 0) return { round: j, within: 0 };
  let start = 0;
  for (let round = 0; ; round++) {
    const len = 1 + randoms * 2 ** Math.min(round, 30);
    if (j < start + len) return { round, within: j - start };
    start += len;
  }
}

/**
 * The beam round strategy `i` belongs to (strategyAt): −1 for the greedy and pilot strategies
 * (0 … 2·GREEDY_STRATEGIES − 1), else the round r of its lane's beam search, the random
 * constructions after that beam included (`randoms`: randomsPerRound).
 */
export function beamRound(i: number, randoms = RANDOM_PER_ROUND): number {
  const k = i - 2 * FIXED.length;
  if (k < 0) return -1;
  return lanePosition(Math.floor(k / BEAM_VARIANTS.length), randoms).round;
}

/**
 * The `i`-th strategy of the search for a job seed, derived from `seed`, `i` and `randoms` only:
 * 0–4 the greedy variants (a plan fast), 5–9 the same with a pilot look-ahead of 4 blocks,
 * then two lanes (even and odd indices, so with two workers each keeps one) of beam searches,
 * one per BEAM_VARIANTS entry, whose work doubles from round to round (beamShape: iterative
 * widening, so the search improves for as long as the budget lasts); after beam round r a lane
 * runs `randoms` · 2^r random constructions (randomsPerRound; half pilot with 2–8 blocks looked at, half
 * GRASP with a candidate list of 5–50 %, half of each with every block shape), which diversify
 * where the beams are slow (many vehicles: the example cartons-40hc-overflow needs one to fit
 * in two containers).
 */
export function strategyAt(seed: number, i: number, randoms = RANDOM_PER_ROUND): Strategy {
  const own = mixSeed(seed, i);
  const fixed = FIXED[i % FIXED.length]!;
  if (i < FIXED.length) return { ...fixed, seed: own };
  if (i < 2 * FIXED.length) return { ...fixed, name: `${fixed.name}-pilot4`, pilot: 4, seed: own };
  const k = i - 2 * FIXED.length;
  const lane = k % BEAM_VARIANTS.length;
  const { round, within } = lanePosition(Math.floor(k / BEAM_VARIANTS.length), randoms);
  if (within === 0) {
    const { fixed: f, wallSlices, general } = BEAM_VARIANTS[lane]!;
    const variant = FIXED[f]!;
    const { beam, branch } = beamShape(round);
    return {
      ...variant,
      name: `${variant.name}-beam${beam}x${branch}${wallSlices ? '-slices' : ''}${general ? '-general' : ''}`,
      beam,
      branch,
      wallSlices,
      general,
      seed: own,
    };
  }
  const rng: Random = mulberry32(own);
  const base = FIXED[Math.floor(rng() * FIXED.length)]!;
  const wallSlices = rng() < 0.5;
  const tag = wallSlices ? '-slices' : '';
  if (rng() < 0.5) {
    const pilot = 2 + Math.floor(rng() * 7);
    return { ...base, name: `${base.name}-pilot${pilot}${tag}`, pilot, wallSlices, seed: own };
  }
  const rcl = 0.05 + rng() * 0.45;
  return { ...base, name: `grasp-${base.name}${tag}`, rcl, wallSlices, seed: own };
}
