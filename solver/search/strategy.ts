/**
 * Parameters of one construction of the search: how the next space is chosen, how blocks are
 * ranked and how much randomness (GRASP) is used.
 */
import { mixSeed, mulberry32, type Random } from './prng.js';

/**
 * `front`: the space with the smallest x (deepest), then lowest y, then closest to a side wall
 * (wall building from the front wall). `corner`: the space whose sorted distance vector to the
 * front corners is lexicographically smallest, ties to the larger volume (Parreño et al. 2008).
 */
export type SpaceRank = 'front' | 'corner';

/** `volume`: the block of the largest volume. `fit`: the block leaving the smallest margins in the space. */
export type BlockScore = 'volume' | 'fit';

/** One construction's parameters. */
export interface Strategy {
  name: string;
  spaceRank: SpaceRank;
  blockScore: BlockScore;
  /** Restricted candidate list as a fraction of the candidates (0 = greedy, take the best). */
  rcl: number;
  /** Pilot method: blocks tried with a greedy completion at each choice (0 = no look-ahead). */
  pilot: number;
  /** Also offer blocks one unit deep (wall slices). */
  wallSlices: boolean;
  /** Seed of this construction's random stream. */
  seed: number;
}

const FIXED: Omit<Strategy, 'seed'>[] = [
  { name: 'front-volume', spaceRank: 'front', blockScore: 'volume', rcl: 0, pilot: 0, wallSlices: false },
  { name: 'corner-volume', spaceRank: 'corner', blockScore: 'volume', rcl: 0, pilot: 0, wallSlices: false },
  { name: 'front-fit', spaceRank: 'front', blockScore: 'fit', rcl: 0, pilot: 0, wallSlices: false },
  { name: 'corner-fit', spaceRank: 'corner', blockScore: 'fit', rcl: 0, pilot: 0, wallSlices: false },
];

/**
 * The `i`-th strategy of the search for a job seed, derived from `seed` and `i` only:
 * 0–3 the greedy variants (a plan fast), 4–7 the same with a pilot look-ahead of 4 blocks,
 * then random variants: half pilot constructions (2–8 blocks looked at), half GRASP
 * constructions (candidate list 5–50 %), half of each also offering wall slices.
 */
export function strategyAt(seed: number, i: number): Strategy {
  const own = mixSeed(seed, i);
  const fixed = FIXED[i % FIXED.length]!;
  if (i < FIXED.length) return { ...fixed, seed: own };
  if (i < 2 * FIXED.length) return { ...fixed, name: `${fixed.name}-pilot4`, pilot: 4, seed: own };
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
