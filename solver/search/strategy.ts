/**
 * Parameters of one construction of the search: how the next space is chosen, how blocks are
 * ranked and how much randomness (GRASP) is used.
 */
import { mixSeed } from './prng.js';

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
  /** Seed of this construction's random stream. */
  seed: number;
}

const FIXED: Omit<Strategy, 'seed'>[] = [
  { name: 'corner-fitness', spaceRank: 'corner', blockScore: 'fitness', rcl: 0, pilot: 0, beam: 0, branch: 0, wallSlices: false },
  { name: 'corner-volume', spaceRank: 'corner', blockScore: 'volume', rcl: 0, pilot: 0, beam: 0, branch: 0, wallSlices: false },
  { name: 'front-fitness', spaceRank: 'front', blockScore: 'fitness', rcl: 0, pilot: 0, beam: 0, branch: 0, wallSlices: false },
  { name: 'front-fit', spaceRank: 'front', blockScore: 'fit', rcl: 0, pilot: 0, beam: 0, branch: 0, wallSlices: false },
];

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
const BEAM_VARIANTS: { fixed: number; wallSlices: boolean }[] = [{ fixed: 0, wallSlices: false }, { fixed: 1, wallSlices: true }];

/**
 * The `i`-th strategy of the search for a job seed, derived from `seed` and `i` only:
 * 0–3 the greedy variants (a plan fast), 4–7 the same with a pilot look-ahead of 4 blocks,
 * then rounds of beam searches, one per BEAM_VARIANTS entry, whose work doubles from round to
 * round (beamShape: iterative widening, so the search improves for as long as the budget
 * lasts). With two workers each keeps one variant.
 */
export function strategyAt(seed: number, i: number): Strategy {
  const own = mixSeed(seed, i);
  const fixed = FIXED[i % FIXED.length]!;
  if (i < FIXED.length) return { ...fixed, seed: own };
  if (i < 2 * FIXED.length) return { ...fixed, name: `${fixed.name}-pilot4`, pilot: 4, seed: own };
  const j = i - 2 * FIXED.length;
  const round = Math.floor(j / BEAM_VARIANTS.length);
  const { fixed: f, wallSlices } = BEAM_VARIANTS[j % BEAM_VARIANTS.length]!;
  const variant = FIXED[f]!;
  const { beam, branch } = beamShape(round);
  return { ...variant, name: `${variant.name}-beam${beam}x${branch}${wallSlices ? '-slices' : ''}`, beam, branch, wallSlices, seed: own };
}
