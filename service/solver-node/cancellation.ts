/**
 * Cancellation on a solver node: when a job ends elsewhere (canceled, or failed `queue_timeout`)
 * its search stops at once and its wait for a compute slot is given up. The node hears the
 * job-ended signal on the bus (sent by the scheduler when a job ends, domain/job/process.ts); a
 * slow poll of a computing job's state (every END_POLL_MS) catches a signal lost while the bus
 * was away.
 */
import { loadState } from '../../domain/decider/handle.js';
import { jobDecider } from '../../domain/job/decide.js';
import type { JobEvent, JobState } from '../../domain/job/job.js';
import { JOB_ENDED_SIGNAL, type JobEndedSignal } from '../../domain/job/process.js';
import { jobStream } from '../../domain/job/streams.js';
import type { Bus } from '../../domain/ports/bus.js';
import type { EventStore } from '../../domain/ports/event-store.js';
import { isStoreFailure } from '../../domain/ports/store-unavailable.js';
import type { StoreRetry } from './store-retry.js';

/**
 * How often a computing job's state is read to notice that it ended elsewhere, ms: the fallback of
 * the job-ended signal, for a signal lost while the bus was away (4 reads a minute per computing
 * job instead of 60 with a poll every second).
 */
export const END_POLL_MS = 15_000;

/** The abort reason of a search or slot wait whose job ended elsewhere. */
export const JOB_ENDED = 'job ended';

/** A wait for a compute slot that the job's end gives up. */
export interface SlotWait {
  /** Aborted when the job ends while it waits. */
  signal: AbortSignal;
  /** Forgets the wait (it got its slot or gave up). */
  done(): void;
}

/** The searches and slot waits of one node, each aborted when its job ends. */
export class CancellationWatch {
  /** Searches running on this node, by job id. */
  private readonly searches = new Map<string, AbortController>();
  /** Jobs whose messages wait for a compute slot; aborting one gives up the wait. */
  private readonly waits = new Map<string, AbortController>();

  /**
   * @param store where the fallback poll reads a job's state
   * @param retry the node's store retry, told of the poll's failed and answered reads (one log per outage)
   * @param pollMs period of the fallback poll, ms
   */
  constructor(
    private readonly store: EventStore,
    private readonly retry: StoreRetry,
    private readonly pollMs: number = END_POLL_MS,
  ) {}

  /** Listens for the job-ended signal on `bus`; returns the function that stops listening. */
  listen(bus: Bus): () => void {
    return bus.onSignal<JobEndedSignal>(JOB_ENDED_SIGNAL, ({ jobId }) => this.abort(jobId, JOB_ENDED));
  }

  /**
   * Aborts the search of `jobId` if this node runs it, and gives up its wait for a compute slot if
   * it waits here (its message is then dropped, so a prefetched job that ended takes no slot).
   */
  abort(jobId: string, reason = 'aborted'): void {
    this.searches.get(jobId)?.abort(reason);
    this.waits.get(jobId)?.abort(reason);
  }

  /** Registers the wait of `jobId` for a compute slot. */
  slotWait(jobId: string): SlotWait {
    const wait = new AbortController();
    this.waits.set(jobId, wait);
    return {
      signal: wait.signal,
      done: () => {
        if (this.waits.get(jobId) === wait) this.waits.delete(jobId);
      },
    };
  }

  /** Registers the search of `jobId`; its controller aborts with JOB_ENDED when the job ends elsewhere. */
  searchStarts(jobId: string): AbortController {
    const controller = new AbortController();
    this.searches.set(jobId, controller);
    return controller;
  }

  /** Forgets the search of `jobId` (it finished or was given up). */
  searchEnds(jobId: string): void {
    this.searches.delete(jobId);
  }

  /** Aborts every search on this node with `reason` (the node closes). */
  abortSearches(reason: string): void {
    for (const c of this.searches.values()) c.abort(reason);
  }

  /**
   * Starts the fallback poll of a computing job: every `pollMs` reads the job once and aborts
   * `controller` with JOB_ENDED when it ended (a failed read waits for the next poll). Returns the
   * function that stops polling.
   */
  pollEnd(jobId: string, controller: AbortController): () => void {
    const poll = setInterval(() => this.stopIfEnded(jobId, controller), this.pollMs);
    return () => clearInterval(poll);
  }

  private stopIfEnded(jobId: string, controller: AbortController): void {
    void loadState<JobState, JobEvent>(this.store, jobStream(jobId), jobDecider).then(
      ({ state }) => {
        this.retry.answered();
        if (state.status !== 'running') controller.abort(JOB_ENDED);
      },
      (err: unknown) => {
        if (isStoreFailure(err)) this.retry.failed('checking whether the job ended', jobId, err);
      },
    );
  }
}
