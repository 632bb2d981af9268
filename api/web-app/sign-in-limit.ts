/**
 * The web app's sign-in limits: they slow down password guessing without letting anyone lock the
 * owner out. Counters are rate-limiter-flexible's on the service's counter store
 * (api/http/auth/rate-counters.ts), so several API processes share them:
 * - per (email, address): FAILED_SIGN_INS_PER_PAIR failures in 15 min, then 429 `rate_limited`
 *   for that pair only (with Retry-After), even with the right password;
 * - per address: FAILED_SIGN_INS_PER_ADDRESS failures in an hour, whatever the emails, then 429
 *   for that address (high enough for an office behind one NAT, low enough to stop spraying);
 * - per email: after FREE_FAILURES_PER_EMAIL failures in 15 min, every further attempt for the
 *   email, from any address, is held before its password is checked: base, 2×base, 4×base … ms,
 *   at most the max (SignInDelays; defaults 1 s and 10 s). A delay, not a refusal: the owner's
 *   right password from a new address still signs in, only slowly.
 * Held attempts cannot pile up: one address has at most one attempt in flight per email (a second
 * is 429), and at most MAX_HELD_PER_EMAIL delayed attempts from addresses that already failed for
 * the email are held at once (more are 429); an address that never failed for the email is never
 * refused by this cap, so held attempts number at most the attacker's addresses plus the cap.
 * In-flight attempts are counted in this process; the counters are shared.
 * An attempt counts as a failure from its admission (one atomic update per counter, so parallel
 * attempts cannot slip past a limit) until its password proves right. Everything is decided from
 * the email as typed (normalised), before the credential is read, so an unknown email is answered
 * like a known one. A success clears the email's and the pair's counts.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { normalizeEmail } from '../../domain/credential/streams.js';
import { addressGroup } from './address-group.js';
import { ApiError } from '../http/errors.js';
import { memoryCounters } from '../http/auth/rate-counters.js';
import type { HttpPorts, HttpSettings } from '../http/context.js';

/** Failed sign-ins allowed per (email, address) in PAIR_WINDOW_S before that pair gets 429. */
export const FAILED_SIGN_INS_PER_PAIR = 5;
/** Window of the (email, address) count, s. */
export const PAIR_WINDOW_S = 15 * 60;
/** Failed sign-ins allowed per address (any emails) in ADDRESS_WINDOW_S before that address gets 429. */
export const FAILED_SIGN_INS_PER_ADDRESS = 100;
/** Window of the per-address count, s. */
export const ADDRESS_WINDOW_S = 3600;
/** Failures of an email (from any address) in EMAIL_WINDOW_S before its attempts are delayed. */
export const FREE_FAILURES_PER_EMAIL = 5;
/** Window of the per-email count, s. */
export const EMAIL_WINDOW_S = 15 * 60;
/** Attempts held at once for one email from addresses that already failed for it. */
export const MAX_HELD_PER_EMAIL = 10;

import { DEFAULT_SIGN_IN_DELAYS, type SignInDelays } from './sign-in-delays.js';

export { DEFAULT_SIGN_IN_DELAYS, type SignInDelays };

/** The hold of an attempt for an email that failed `failures` times in its window, ms (0: none). */
export function signInDelayMs(failures: number, delays: SignInDelays): number {
  if (failures < FREE_FAILURES_PER_EMAIL) return 0;
  const doublings = Math.min(failures - FREE_FAILURES_PER_EMAIL, 30);
  return Math.min(delays.maxMs, delays.baseMs * 2 ** doublings);
}

/** One admitted attempt, already counted as a failure: report its outcome, then release it (in `finally`). */
export interface SignInAttempt {
  /** The password was right: clears the email's and the pair's failures, gives the address its point back. */
  succeeded(): Promise<void>;
  /** The check itself broke (not a wrong password): gives every point back. */
  undone(): Promise<void>;
  /** Ends the attempt's place among the email's in-flight attempts. */
  release(): void;
}

/** Throws 429 rate_limited with Retry-After `ms` rounded up to whole seconds (at least 1). */
function refuse(ms: number, why: string): never {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  throw new ApiError('rate_limited', `${why}; retry after ${seconds} s`, undefined, { retryAfterSeconds: seconds });
}

/** Attempts of one email in flight in this process: the addresses, and how many are held from addresses that failed before. */
interface Flight {
  addresses: Set<string>;
  heldFromFailed: number;
}

/** The counters of one running service. */
export class SignInLimit {
  private readonly byPair: RateLimiterAbstract;
  private readonly byAddress: RateLimiterAbstract;
  private readonly byEmail: RateLimiterAbstract;
  private readonly inFlight = new Map<string, Flight>();
  private readonly delays: SignInDelays;

  constructor(ctx: Pick<HttpPorts, 'rateCounters'> & Pick<HttpSettings, 'signInDelays'>) {
    const counters = ctx.rateCounters ?? memoryCounters;
    // Counted without a ceiling and compared here (like api/http/auth/rate-limit.ts), so a refusal can give its points back.
    const unbounded = Number.MAX_SAFE_INTEGER;
    this.byPair = counters({ keyPrefix: 'sign-in-pair', points: unbounded, duration: PAIR_WINDOW_S });
    this.byAddress = counters({ keyPrefix: 'sign-in-address', points: unbounded, duration: ADDRESS_WINDOW_S });
    this.byEmail = counters({ keyPrefix: 'sign-in-email', points: unbounded, duration: EMAIL_WINDOW_S });
    this.delays = ctx.signInDelays ?? DEFAULT_SIGN_IN_DELAYS;
  }

  /**
   * Admits a sign-in attempt of `email` from `address` and counts it as a failure until told
   * otherwise (one atomic update per counter, so parallel attempts cannot slip past a limit).
   * Throws 429 rate_limited (Retry-After) when this address has an attempt for the email in
   * flight, when the pair or the address used up its failures, or when the email is delayed, this
   * address failed for it before and MAX_HELD_PER_EMAIL such attempts are held; a refused attempt
   * is not counted. Otherwise waits the email's delay (signInDelayMs) and resolves the attempt.
   */
  async admit(email: string, clientAddress: string): Promise<SignInAttempt> {
    const who = normalizeEmail(email);
    // An IPv6 client counts by its /64 network (api/web-app/address-group.ts).
    const address = addressGroup(clientAddress);
    const pairKey = `${who}|${address}`;
    let flight = this.inFlight.get(who);
    // One attempt per (email, address) at a time: a person never needs two, and it keeps parallel
    // guesses from one address from sharing a delay.
    if (flight?.addresses.has(address))
      refuse(1000, 'a sign-in for this email from this address is still being checked');
    if (!flight) this.inFlight.set(who, (flight = { addresses: new Set(), heldFromFailed: 0 }));
    const entry = flight;
    entry.addresses.add(address);
    let heldFromFailed = false;
    let released = false;
    const release = (): void => {
      if (released) return;
      released = true;
      entry.addresses.delete(address);
      if (heldFromFailed) entry.heldFromFailed--;
      if (entry.addresses.size === 0 && this.inFlight.get(who) === entry) this.inFlight.delete(who);
    };
    const giveBack = async (): Promise<void> => {
      await Promise.all([this.byPair.reward(pairKey), this.byAddress.reward(address), this.byEmail.reward(who)]);
    };
    try {
      const [pair, byAddress, byEmail] = await Promise.all([
        this.byPair.consume(pairKey),
        this.byAddress.consume(address),
        this.byEmail.consume(who),
      ]);
      const refusal =
        pair.consumedPoints > FAILED_SIGN_INS_PER_PAIR
          ? { ms: pair.msBeforeNext, why: 'too many failed sign-ins for this email from this address' }
          : byAddress.consumedPoints > FAILED_SIGN_INS_PER_ADDRESS
            ? { ms: byAddress.msBeforeNext, why: 'too many failed sign-ins from this address' }
            : null;
      const delay = signInDelayMs(byEmail.consumedPoints - 1, this.delays);
      if (!refusal && delay > 0 && pair.consumedPoints > 1) {
        if (entry.heldFromFailed >= MAX_HELD_PER_EMAIL) {
          await giveBack();
          refuse(delay, 'too many sign-ins for this email are waiting');
        }
        entry.heldFromFailed++;
        heldFromFailed = true;
      }
      if (refusal) {
        await giveBack();
        refuse(refusal.ms, refusal.why);
      }
      if (delay > 0) await sleep(delay);
    } catch (err) {
      release();
      throw err;
    }
    return {
      succeeded: async () => {
        await Promise.all([this.byPair.delete(pairKey), this.byEmail.delete(who), this.byAddress.reward(address)]);
      },
      undone: giveBack,
      release,
    };
  }
}

const perService = new WeakMap<object, SignInLimit>();

/** The sign-in counters of a running service (made on first use). */
export function signInLimitOf(ctx: Pick<HttpPorts, 'rateCounters'> & Pick<HttpSettings, 'signInDelays'>): SignInLimit {
  let limit = perService.get(ctx);
  if (!limit) perService.set(ctx, (limit = new SignInLimit(ctx)));
  return limit;
}
