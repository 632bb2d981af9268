/**
 * Fixed-window counts in this process's memory, counted synchronously: the rate limits of the
 * embedded profile (api/http/auth/rate-limit.ts) without a promise per count. The counts are
 * those of rate-limiter-flexible's RateLimiterMemory, which the other stores' counters keep: a
 * subject's window opens with its first count and lasts the window's duration; a count in an
 * open window adds to it, one after its end opens a new window.
 *
 * Ended windows are dropped in sweeps (instead of a timer per window): a sweep runs when the
 * number of windows held reaches twice what the last sweep left (at least SWEEP_FROM), so the
 * memory held stays within twice the subjects counted in the last window's duration.
 */

/** One subject's open window: the count so far and when it ends (epoch ms). */
export interface CountWindow {
  count: number;
  endsAt: number;
}

/** Fewest windows held before a sweep runs. */
const SWEEP_FROM = 1024;

/** The windows of one duration, by subject (an API key, a member, an organization, an IP address). */
export class MemoryRateWindows {
  private readonly windows = new Map<string, CountWindow>();
  private sweepAt = SWEEP_FROM;

  /** `durationMs`: how long a window lasts from its first count, ms. */
  constructor(private readonly durationMs: number) {}

  /**
   * Adds `points` (negative: gives them back) to `subject`'s window open at `now` (epoch ms),
   * opening one when it has none; returns that window (read it at once: later counts change it).
   */
  add(subject: string, points: number, now: number): CountWindow {
    const open = this.windows.get(subject);
    if (open !== undefined && open.endsAt > now) {
      open.count += points;
      return open;
    }
    const opened = { count: points, endsAt: now + this.durationMs };
    this.windows.set(subject, opened);
    if (this.windows.size >= this.sweepAt) this.sweep(now);
    return opened;
  }

  /** `subject`'s window open at `now` (epoch ms), undefined when it has none. */
  current(subject: string, now: number): CountWindow | undefined {
    const open = this.windows.get(subject);
    return open !== undefined && open.endsAt > now ? open : undefined;
  }

  /** How many windows are held, ended ones not swept yet included (tests). */
  get size(): number {
    return this.windows.size;
  }

  /** Drops the windows ended at `now`. */
  private sweep(now: number): void {
    for (const [subject, window] of this.windows) if (window.endsAt <= now) this.windows.delete(subject);
    this.sweepAt = Math.max(SWEEP_FROM, 2 * this.windows.size);
  }
}
