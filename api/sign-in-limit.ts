/**
 * The web app's sign-in rate limit (issue 11), with rate-limiter-flexible on the service's
 * counter store (api/rate-counters.ts): at most 5 failed sign-ins per email per 15 min and 30
 * per client IP per hour. Past either, sign-in answers 429 `rate_limited` with `Retry-After`
 * before the password is checked, whether the email exists or not. A success clears the email's count.
 */
import { memoryCounters } from './rate-counters.js';
import { ApiError } from './errors.js';
import type { Services } from './services.js';
import type { Response } from 'express';
import { normalizeEmail } from '../domain/credential/streams.js';

/** Failed sign-ins allowed per email in 15 min, and per IP in an hour. */
export const FAILED_SIGN_INS_PER_EMAIL = 5;
export const FAILED_SIGN_INS_PER_IP = 30;

/** The counters of one running service. */
export class SignInLimit {
  private readonly byEmail;
  private readonly byIp;

  constructor(services: Services) {
    const counters = services.rateCounters ?? memoryCounters;
    this.byEmail = counters({ keyPrefix: 'sign-in-email', points: FAILED_SIGN_INS_PER_EMAIL, duration: 15 * 60 });
    this.byIp = counters({ keyPrefix: 'sign-in-ip', points: FAILED_SIGN_INS_PER_IP, duration: 3600 });
  }

  /** Throws 429 rate_limited (and sets Retry-After) when `email` or `ip` used up its failures. */
  async check(res: Response, email: string, ip: string): Promise<void> {
    const [e, i] = await Promise.all([this.byEmail.get(normalizeEmail(email)), this.byIp.get(ip)]);
    const blocked = [
      e && e.consumedPoints >= FAILED_SIGN_INS_PER_EMAIL ? e.msBeforeNext : 0,
      i && i.consumedPoints >= FAILED_SIGN_INS_PER_IP ? i.msBeforeNext : 0,
    ];
    const ms = Math.max(...blocked);
    if (ms > 0) {
      const seconds = Math.max(1, Math.ceil(ms / 1000));
      res.setHeader('Retry-After', String(seconds));
      throw new ApiError('rate_limited', `too many failed sign-ins; retry after ${seconds} s`);
    }
  }

  /** Counts a failed sign-in of `email` from `ip`. */
  async failed(email: string, ip: string): Promise<void> {
    await Promise.all([this.byEmail.penalty(normalizeEmail(email)), this.byIp.penalty(ip)]);
  }

  /** Clears the email's failures after a successful sign-in. */
  async succeeded(email: string): Promise<void> {
    await this.byEmail.delete(normalizeEmail(email));
  }
}

const perService = new WeakMap<Services, SignInLimit>();

/** The sign-in counters of a running service (made on first use). */
export function signInLimitOf(services: Services): SignInLimit {
  let limit = perService.get(services);
  if (!limit) perService.set(services, (limit = new SignInLimit(services)));
  return limit;
}
