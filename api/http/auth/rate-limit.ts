/**
 * Rate limiting (spec Limits rule 1, Authentication 5, Errors `rate_limited`):
 * - requests per minute, hour and day, counted for each API key AND for its organization, with
 *   the organization's `limits.rateLimits`; the strictest applies. Fixed windows: a window starts
 *   with its first request and lasts 60 s / 3,600 s / 86,400 s.
 * - failed authentications (401) per IP address and presented key prefix (the first 12
 *   characters of the presented key, the prefix the console shows): after 60 in a minute, a
 *   failing request with that prefix from that address gets `429 rate_limited` instead of 401,
 *   until the minute ends; after 600 from one address in a minute (keys sprayed with ever new
 *   prefixes), every failing request from it does. A request whose key is valid is never refused
 *   for failures: behind a shared NAT, one client's bad key does not lock out the others, nor
 *   does someone guessing at a key's prefix lock out its owner (a key's 40 random characters
 *   cannot be guessed; the limit tells a misconfigured client to stop, and it applies to it alone).
 *
 * Counters are `rate-limiter-flexible` limiters on the store the composition root chose
 * (`HttpPorts.rateCounters`, api/http/context.ts; api/http/auth/rate-counters.ts): process memory in
 * the embedded profile, a SQLite file or MongoDB when several API processes must share one count.
 */
import type { Response } from 'express';
import type { OrgLimits } from '../../../domain/organization/limits.js';
import { memoryCounters, type RateCounterFactory } from './rate-counters.js';
import type { HttpPorts } from '../context.js';

/** Failed authentications allowed per minute from one IP address with one presented key prefix (spec Errors `rate_limited`). */
export const FAILED_AUTH_PER_MINUTE = 60;

/** Failed authentications allowed per minute from one IP address whatever the prefixes (key spraying). */
export const FAILED_AUTH_PER_ADDRESS_PER_MINUTE = 600;

/** Characters of a presented key that count it as one key (the display prefix, application/api-key.ts). */
const PRESENTED_PREFIX_LENGTH = 12;

/** What the rate headers report: the tightest window, or the one that refused. */
export interface RateDecision {
  allowed: boolean;
  /** Requests allowed in the window (`X-RateLimit-Limit`). */
  limit: number;
  /** Requests left in it after this one (`X-RateLimit-Remaining`). */
  remaining: number;
  /** When the window ends, Unix seconds (`X-RateLimit-Reset`). */
  reset: number;
  /** Seconds until a refused request may succeed (`Retry-After`); 0 when allowed. */
  retryAfter: number;
}

type Windows = OrgLimits['rateLimits'];

const WINDOWS: readonly { name: keyof Windows; seconds: number }[] = [
  { name: 'perMinute', seconds: 60 },
  { name: 'perHour', seconds: 3600 },
  { name: 'perDay', seconds: 86_400 },
];

interface Count {
  limit: number;
  consumed: number;
  msLeft: number;
}

const unixSeconds = (msFromNow: number): number => Math.ceil((Date.now() + msFromNow) / 1000);

/** The rate counters of one running service. */
export class RateLimits {
  // Limits differ per organization and may change, so the counters never refuse by themselves
  // (points: unbounded) and the decision compares their counts with the caller's current limits.
  private readonly windows;
  private readonly failedAuth;
  private readonly failedAuthAddress;

  constructor(counters: RateCounterFactory = memoryCounters) {
    this.windows = WINDOWS.map((w) => ({
      ...w,
      counter: counters({ keyPrefix: w.name, points: Number.MAX_SAFE_INTEGER, duration: w.seconds }),
    }));
    // Points unbounded: the decision compares the counts with the limits (a penalty never throws).
    this.failedAuth = counters({ keyPrefix: 'failed-auth', points: Number.MAX_SAFE_INTEGER, duration: 60 });
    this.failedAuthAddress = counters({
      keyPrefix: 'failed-auth-address',
      points: Number.MAX_SAFE_INTEGER,
      duration: 60,
    });
  }

  /**
   * Counts one request of key `keyId` of organization `orgId` in every window. A refused request
   * is not counted (its points are given back), so retrying after `Retry-After` works.
   */
  async admit(keyId: string, orgId: string, limits: Windows): Promise<RateDecision> {
    const subjects = [`key:${keyId}`, `org:${orgId}`];
    const pairs = this.windows.flatMap((w) => subjects.map((subject) => ({ w, subject })));
    // Memory limiters count synchronously when called, so all six counts move together; store
    // limiters count each in one atomic update.
    const results = await Promise.all(pairs.map(({ w, subject }) => w.counter.consume(subject)));
    const counts: Count[] = results.map((res, i) => ({
      limit: limits[pairs[i]!.w.name],
      consumed: res.consumedPoints,
      msLeft: res.msBeforeNext,
    }));
    const over = counts.filter((c) => c.consumed > c.limit);
    if (over.length > 0) {
      await Promise.all(pairs.map(({ w, subject }) => w.counter.reward(subject)));
      // Every exceeded window must end before a retry can pass: report the one ending last.
      const blocking = over.reduce((a, b) => (b.msLeft > a.msLeft ? b : a));
      return {
        allowed: false,
        limit: blocking.limit,
        remaining: 0,
        reset: unixSeconds(blocking.msLeft),
        retryAfter: Math.max(1, Math.ceil(blocking.msLeft / 1000)),
      };
    }
    const tightest = counts.reduce((a, b) => {
      const ra = a.limit - a.consumed;
      const rb = b.limit - b.consumed;
      return rb < ra || (rb === ra && b.msLeft < a.msLeft) ? b : a;
    });
    return {
      allowed: true,
      limit: tightest.limit,
      remaining: tightest.limit - tightest.consumed,
      reset: unixSeconds(tightest.msLeft),
      retryAfter: 0,
    };
  }

  /**
   * Counts a failed authentication (401) from `ip` presenting `presented` (the Authorization
   * header's credential, '' when there is none). Resolves with the refusal (429) when this
   * failure is over FAILED_AUTH_PER_MINUTE for the address and the presented prefix, or over
   * FAILED_AUTH_PER_ADDRESS_PER_MINUTE for the address; else null (answer the 401).
   */
  async recordFailedAuth(ip: string, presented: string): Promise<RateDecision | null> {
    const pair = `${ip} ${presented.slice(0, PRESENTED_PREFIX_LENGTH)}`;
    const [byPair, byAddress] = await Promise.all([this.failedAuth.penalty(pair), this.failedAuthAddress.penalty(ip)]);
    const over = [
      { limit: FAILED_AUTH_PER_MINUTE, res: byPair },
      { limit: FAILED_AUTH_PER_ADDRESS_PER_MINUTE, res: byAddress },
    ].filter((c) => c.res.consumedPoints > c.limit);
    if (over.length === 0) return null;
    const blocking = over.reduce((a, b) => (b.res.msBeforeNext > a.res.msBeforeNext ? b : a));
    return {
      allowed: false,
      limit: blocking.limit,
      remaining: 0,
      reset: unixSeconds(blocking.res.msBeforeNext),
      retryAfter: Math.max(1, Math.ceil(blocking.res.msBeforeNext / 1000)),
    };
  }
}

const perService = new WeakMap<object, RateLimits>();

/** The counters of a running service (one set per services object, made on first use). */
export function rateLimitsOf(ctx: Pick<HttpPorts, 'rateCounters'>): RateLimits {
  let limits = perService.get(ctx);
  if (!limits) {
    limits = new RateLimits(ctx.rateCounters);
    perService.set(ctx, limits);
  }
  return limits;
}

/** Sets `X-RateLimit-Limit/-Remaining/-Reset`, and `Retry-After` on a refusal. */
export function setRateHeaders(res: Response, decision: RateDecision): void {
  res.setHeader('X-RateLimit-Limit', String(decision.limit));
  res.setHeader('X-RateLimit-Remaining', String(decision.remaining));
  res.setHeader('X-RateLimit-Reset', String(decision.reset));
  if (!decision.allowed) res.setHeader('Retry-After', String(decision.retryAfter));
}
