/**
 * The delays of the web app's sign-in limit (api/web-app/sign-in-limit.ts), a setting of the HTTP
 * edge (SIGN_IN_DELAY_BASE_MS, SIGN_IN_DELAY_MAX_MS); apart so the settings need not import the limit.
 */

/** The growing delay of a delayed email: `baseMs` × 2^(failures − free), at most `maxMs` (ms). */
export interface SignInDelays {
  baseMs: number;
  maxMs: number;
}

/** Default delays: 1 s, 2 s, 4 s, 8 s, then 10 s per attempt. */
export const DEFAULT_SIGN_IN_DELAYS: SignInDelays = { baseMs: 1000, maxMs: 10_000 };
