/**
 * Solver node tests without the service: a job made running directly in an event store (request
 * body, JobQueued, JobStarted, as admission and the scheduler write them), and a stand-in for the
 * search that computes until it is aborted or told to finish.
 */
import { serviceActor } from '../../domain/decider/actor.js';
import { handleCommand } from '../../domain/decider/handle.js';
import { jobDecider } from '../../domain/job/decide.js';
import type { JobQueuedData } from '../../domain/job/job.js';
import { jobBodyStream, jobStream } from '../../domain/job/streams.js';
import type { EventStore } from '../../domain/ports/event-store.js';
import type { Solver, SolveOutcome } from '../../solver/solve.js';

/** Writes job `jobId` of `orgId` as running (its slot given, no solver yet); the request body is empty (the stand-in solver ignores it). */
export async function runningJob(store: EventStore, jobId: string, orgId = 'org_test'): Promise<void> {
  const now = new Date().toISOString();
  const metadata = { now, actor: serviceActor('scheduler') };
  const queued: JobQueuedData = {
    jobId,
    orgId,
    keyId: 'key_test',
    memberId: 'mem_test',
    source: 'api',
    reference: null,
    createdAt: now,
    expiresAt: '2099-01-01T00:00:00.000Z',
    items: 1,
    maxVehicles: 1,
    budgetMs: 60_000,
    reservedMicros: 0,
    rateCardVersion: 1,
    warnings: [],
  };
  await store.append(
    jobBodyStream(jobId),
    [{ id: `${jobId}:request`, type: 'RequestStored', data: { request: {}, model: {}, queued } }],
    'any',
  );
  await handleCommand(store, jobStream(jobId), jobDecider, { type: 'QueueJob', data: queued, metadata });
  await handleCommand(store, jobStream(jobId), jobDecider, { type: 'StartJob', data: { jobId }, metadata });
}

/** A search that runs until its signal aborts (then `canceled`); `calls` counts the searches begun. */
export class EndlessSolver implements Pick<Solver, 'warm' | 'solve'> {
  calls = 0;
  /** Searches running now. */
  readonly running = new Set<Promise<SolveOutcome>>();

  async warm(): Promise<void> {}

  solve(_model: unknown, options: { signal?: AbortSignal } = {}): Promise<SolveOutcome> {
    this.calls += 1;
    const started = Date.now();
    const search = new Promise<SolveOutcome>((resolve) => {
      const stop = (): void => resolve({ status: 'canceled', computeMs: Date.now() - started });
      if (options.signal?.aborted) stop();
      else options.signal?.addEventListener('abort', stop, { once: true });
    });
    this.running.add(search);
    void search.then(() => this.running.delete(search));
    return search;
  }
}

/** Resolves once `check()` holds, looking every 10 ms; throws after `timeoutMs` naming `what` (generous: only a hang reaches it). */
export async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
