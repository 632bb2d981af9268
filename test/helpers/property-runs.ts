/**
 * How many cases a property test tries (fast-check `numRuns`, `seed`), by the depth of the run:
 *
 * - `npm test` (CI, every try of a change): `numRuns` cases from the fixed `seed`, the same
 *   cases every run, so a failure reproduces as it is;
 * - `npm run test:deep` (PACKING_TEST_DEPTH=deep; a release or a nightly job): DEEP_FACTOR times
 *   as many cases from a fresh seed each run, which fast-check prints with a failure
 *   (`seed`, `path`) so it can be replayed.
 *
 * The CI counts are chosen per test for what it covers; the deep run restores the larger
 * searches these tests ran with before they were split.
 */

/** How many times the CI count a deep run tries. */
export const DEEP_FACTOR = 3;

/** True under `npm run test:deep`. */
export const deepRun = (): boolean => process.env['PACKING_TEST_DEPTH'] === 'deep';

/** fast-check parameters: `numRuns` cases from `seed`, or DEEP_FACTOR × `numRuns` from a fresh seed in a deep run. */
export function propertyRuns(numRuns: number, seed: number): { numRuns: number; seed?: number } {
  return deepRun() ? { numRuns: numRuns * DEEP_FACTOR } : { numRuns, seed };
}
