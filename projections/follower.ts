/**
 * Follows read models written by a projector in another process (distributed profile, MongoDB):
 * reads the event log itself and announces each event once every projection's checkpoint in the
 * shared read store has reached it, so `?wait=` and read-your-writes work in API and scheduler
 * processes that project nothing themselves.
 *
 * A store outage stops nothing (DESIGN §2, distributed profile): the log is read through a
 * resuming subscription (domain/log/resuming-subscription.ts), and the head read at start and
 * every read of the shared checkpoints are tried again with backoff until they succeed
 * (domain/log/retry-step.ts); start-up waits for the stores meanwhile.
 */
import type { EventStore } from '../domain/ports/event-store.js';
import type { ReadStore } from '../domain/ports/read-store.js';
import {
  SILENT_OUTAGE_LOG,
  stepOutageLog,
  subscriptionOutageLog,
  type OutageLogger,
} from '../domain/log/outage-log.js';
import { resumingSubscription, type ResubscribeBackoff } from '../domain/log/resuming-subscription.js';
import { pause } from '../domain/log/backoff.js';
import { retryStep, StepStopped } from '../domain/log/retry-step.js';
import { AppliedPosition } from './applied-position.js';
import type { FollowerOptions } from './follower-options.js';
import type { ReadModelProgress } from './progress.js';

/** How often the shared checkpoints are read while an event waits for them, ms. */
const CHECKPOINT_POLL_MS = 50;

/** How the follower names itself in its outage log lines. */
const FOLLOWER = 'checkpoint follower';

export class CheckpointFollower extends AppliedPosition implements ReadModelProgress {
  private stopped = false;
  private loop: Promise<void> | undefined;
  private readonly stopping = new AbortController();
  private readonly log: OutageLogger;
  private readonly backoff: ResubscribeBackoff;

  /**
   * `projections`: names of the projections whose checkpoints must all reach an event;
   * `options`: where store failures are logged, and the backoff of the retries.
   */
  constructor(
    store: EventStore,
    private readonly readStore: ReadStore,
    private readonly projections: readonly string[],
    options: FollowerOptions = {},
  ) {
    super(store);
    this.log = options.log ?? SILENT_OUTAGE_LOG;
    this.backoff = options.backoff ?? {};
  }

  /** The lowest checkpoint of the projections, read until the read store answers (StepStopped once stopped). */
  private sharedCheckpoint(): Promise<number> {
    return retryStep(
      async () => Math.min(...(await Promise.all(this.projections.map((p) => this.readStore.checkpoint(p))))),
      {
        ...this.backoff,
        ...stepOutageLog(this.log, FOLLOWER, 'read checkpoints'),
        signal: this.stopping.signal,
      },
    );
  }

  async catchUp(): Promise<void> {
    const head = await retryStep(() => this.store.headPosition(), {
      ...this.backoff,
      ...stepOutageLog(this.log, FOLLOWER, 'read the head position'),
      signal: this.stopping.signal,
    });
    // The projector may be behind, or not started yet: wait for it, with a word in the log every
    // few seconds from the caller's side (it sees catchUp still pending).
    for (;;) {
      this.startAt(await this.sharedCheckpoint());
      if (this.position >= head || this.stopped) break;
      await pause(CHECKPOINT_POLL_MS, this.stopping.signal);
    }
    this.subscription = resumingSubscription(this.store, this.position, {
      ...this.backoff,
      ...subscriptionOutageLog(this.log, FOLLOWER),
    });
    const iterator = this.subscription[Symbol.asyncIterator]();
    this.loop = (async () => {
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
        const event = next.value;
        while (!this.stopped && (await this.sharedCheckpoint()) < event.position)
          await pause(CHECKPOINT_POLL_MS, this.stopping.signal);
        if (this.stopped) return;
        this.advance(event);
      }
    })().catch((err: unknown) => {
      // Only a stop ends the loop; anything else would be a bug, and must not go unhandled.
      if (!(err instanceof StepStopped))
        this.log.warn({ follower: FOLLOWER, err }, 'checkpoint follower stopped on an unexpected error');
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.stopping.abort();
    this.subscription?.close();
    await this.loop;
  }
}
