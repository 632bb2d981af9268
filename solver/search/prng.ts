/**
 * Seeded pseudo-random numbers for the randomized search (no Math.random: the same model and
 * seed must give the same plan).
 */

/** A PRNG: each call returns a float in [0, 1). */
export type Random = () => number;

/**
 * Mulberry32 generator from a 32-bit seed (any number; only its low 32 bits count).
 * Returns a function giving floats in [0, 1).
 */
export function mulberry32(seed: number): Random {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Mixes a base seed with a stream number into a new 32-bit seed (for per-candidate streams). */
export function mixSeed(seed: number, stream: number): number {
  let h = (seed ^ Math.imul(stream + 0x9e3779b9, 0x85ebca6b)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}
