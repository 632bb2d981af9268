/**
 * Pacing of the NATS bus's attempts to reach its server (DESIGN §2, distributed profile): a
 * capped, doubling wait with jitter, so a fleet of solver nodes does not dial a returning server
 * in lock-step, and one node never waits longer than the cap once the server is back.
 */
import { backoffDelay as doublingDelay, withJitter } from '../../domain/log/backoff.js';

/** Bounds of the wait between two attempts, ms. */
export interface BackoffBounds {
  /** Wait before the second attempt (the first is immediate), ms. */
  minMs: number;
  /** Longest wait between two attempts, ms. */
  maxMs: number;
}

/**
 * Wait before attempt `failures + 1` after `failures` failed ones, ms: `minMs · 2^(failures−1)`
 * capped at `maxMs`, then drawn uniformly from its upper half ("equal jitter"), so it is never
 * below half the nominal wait. 0 failures wait 0. `random` is `Math.random` but for tests.
 */
export function backoffDelay(failures: number, bounds: BackoffBounds, random: () => number = Math.random): number {
  if (failures <= 0) return 0;
  const min = Math.max(1, bounds.minMs);
  return withJitter(doublingDelay(failures, min, Math.max(min, bounds.maxMs)), random);
}

/**
 * Attempt counter behind the NATS client's `reconnectDelayHandler`. The client asks the handler
 * for a wait on every turn of its dial loop (also while it sleeps), so the wait is drawn once
 * per attempt and repeated until the next attempt is counted ({@link attempted}); a successful
 * connection starts over ({@link reset}).
 */
export class ReconnectPacing {
  private failures = 0;
  private drawn: { failures: number; ms: number } | undefined;

  constructor(
    private readonly bounds: BackoffBounds,
    private readonly random: () => number = Math.random,
  ) {}

  /** Wait before the next attempt, ms (at least `minMs`, so the dial loop never spins). */
  delayMs(): number {
    if (this.drawn?.failures !== this.failures) {
      this.drawn = {
        failures: this.failures,
        ms: Math.max(this.bounds.minMs, backoffDelay(this.failures, this.bounds, this.random)),
      };
    }
    return this.drawn.ms;
  }

  /** One more attempt was made (the client reports it as a `reconnecting` status). */
  attempted(): void {
    this.failures += 1;
  }

  /** Attempts made since the last successful connection. */
  get attempts(): number {
    return this.failures;
  }

  /** Connected: the next outage starts from the shortest wait. */
  reset(): void {
    this.failures = 0;
    this.drawn = undefined;
  }
}
