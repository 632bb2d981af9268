/**
 * The solver node's held messages and cancellation paths on the in-process bus, with a real
 * (in-memory SQLite) store behind a fault-injecting decorator and a stand-in search
 * (test/helpers/running-job.ts):
 * - the job-ended signal stops a search at once, and drops a message waiting for a compute slot;
 *   when no signal comes (lost while the bus was away) the slow poll of the job's state stops it;
 * - a node waiting out a store outage hands its message back at once when it closes, and another
 *   node computes the job when the store answers again.
 */
import t, { type Test } from 'tap';
import { pino } from 'pino';
import { InProcessBus } from '../../../adapters/in-process/bus.js';
import { SqliteEventStore } from '../../../adapters/sqlite/event-store.js';
import { serviceActor } from '../../../domain/decider/actor.js';
import { handleCommand, loadState } from '../../../domain/decider/handle.js';
import { jobDecider } from '../../../domain/job/decide.js';
import {
  JOB_ENDED_SIGNAL,
  SOLVE_SUBJECT,
  type JobEndedSignal,
  type SolveMessage,
} from '../../../domain/job/process.js';
import { jobBodyStream, jobStream } from '../../../domain/job/streams.js';
import type { EventStore } from '../../../domain/ports/event-store.js';
import { SolverNode, type SolverNodeDeps } from '../../../service/solver-node/node.js';
import { jobStoreFaults } from '../../helpers/job-store-faults.js';
import { EndlessSolver, runningJob, until } from '../../helpers/running-job.js';

const silent = pino({ level: 'silent' });
const clock = (): string => new Date().toISOString();

/** A fresh store (with its fault decorator), bus and stand-in search; closed after the test. */
function setUp(t: Test) {
  const inner = new SqliteEventStore(':memory:');
  const faults = jobStoreFaults();
  const store = faults.decorate(inner);
  const bus = new InProcessBus();
  const solver = new EndlessSolver();
  const nodes: SolverNode[] = [];
  const node = (deps: Partial<SolverNodeDeps> = {}): SolverNode => {
    const made = new SolverNode({ store, bus, solver, clock, log: silent, concurrency: 1, ...deps });
    nodes.push(made);
    return made;
  };
  t.teardown(async () => {
    for (const n of nodes) await n.close();
    await bus.close();
    await inner.close();
  });
  return { store, faults, bus, solver, node };
}

/** The job's status in the store. */
async function statusOf(store: EventStore, jobId: string): Promise<string> {
  return (await loadState(store, jobStream(jobId), jobDecider)).state.status;
}

/** Cancels the job in the store only, as the API does, without a scheduler to signal it. */
async function cancelInStore(store: EventStore, jobId: string): Promise<void> {
  await handleCommand(store, jobStream(jobId), jobDecider, {
    type: 'CancelJob',
    data: { jobId, computeMs: 0 },
    metadata: { now: clock(), actor: serviceActor('scheduler') },
  });
}

t.test('the job-ended signal stops the search at once, without reading the job', async (t) => {
  const { store, faults, bus, solver, node } = setUp(t);
  await runningJob(store, 'job_1');
  const n = node();
  await n.start();
  await bus.publish(SOLVE_SUBJECT, 'job_1', { jobId: 'job_1' } satisfies SolveMessage);
  await until('the search runs', () => solver.running.size === 1);
  await cancelInStore(store, 'job_1');
  const readsBefore = faults.reads.get(jobStream('job_1')) ?? 0;
  const signaledAt = Date.now();
  await bus.signal(JOB_ENDED_SIGNAL, { jobId: 'job_1' } satisfies JobEndedSignal);
  await until('the search stops', () => solver.running.size === 0 && n.load().computing === 0);
  t.ok(Date.now() - signaledAt < 1000, `stopped ${Date.now() - signaledAt} ms after the signal`);
  // FailJob(canceled) after the search: one command, one read of the events since the cached state.
  t.ok((faults.reads.get(jobStream('job_1')) ?? 0) - readsBefore <= 1, 'no polling read');
  t.equal(await statusOf(store, 'job_1'), 'canceled');
  t.equal(solver.calls, 1);
});

t.test(
  'the job-ended signal drops a message waiting for a compute slot: it takes no slot and is not searched',
  async (t) => {
    const { store, bus, solver, node } = setUp(t);
    await runningJob(store, 'job_busy', 'org_a');
    await runningJob(store, 'job_queued', 'org_b');
    await runningJob(store, 'job_next', 'org_c');
    const n = node({ prefetch: 2 });
    await n.start();
    await bus.publish(SOLVE_SUBJECT, 'job_busy', { jobId: 'job_busy' } satisfies SolveMessage);
    await until('the first job computes', () => solver.running.size === 1);
    await bus.publish(SOLVE_SUBJECT, 'job_queued', { jobId: 'job_queued' } satisfies SolveMessage);
    await bus.publish(SOLVE_SUBJECT, 'job_next', { jobId: 'job_next' } satisfies SolveMessage);
    await until('two wait for the slot', () => n.load().waiting === 2);
    await cancelInStore(store, 'job_queued');
    await bus.signal(JOB_ENDED_SIGNAL, { jobId: 'job_queued' } satisfies JobEndedSignal);
    await until('the ended job leaves the queue', () => n.load().waiting === 1);
    t.same(n.load(), { computing: 1, waiting: 1 });
    // The slot frees: the job still waiting gets it, the dropped one is never searched.
    await cancelInStore(store, 'job_busy');
    await bus.signal(JOB_ENDED_SIGNAL, { jobId: 'job_busy' } satisfies JobEndedSignal);
    await until(
      'the next job computes',
      () => solver.calls === 2 && solver.running.size === 1 && n.load().waiting === 0,
    );
    t.equal(solver.calls, 2, 'job_queued was never searched');
    t.equal(await statusOf(store, 'job_queued'), 'canceled');
  },
);

t.test('no signal (lost while the bus was away): the slow poll of the job stops the search', async (t) => {
  const { store, bus, solver, node } = setUp(t);
  await runningJob(store, 'job_2');
  const n = node({ endPollMs: 200 });
  await n.start();
  await bus.publish(SOLVE_SUBJECT, 'job_2', { jobId: 'job_2' } satisfies SolveMessage);
  await until('the search runs', () => solver.running.size === 1);
  const canceledAt = Date.now();
  await cancelInStore(store, 'job_2');
  await until('the search stops', () => solver.running.size === 0 && n.load().computing === 0, 10_000);
  const after = Date.now() - canceledAt;
  t.ok(after <= 200 + 1000, `stopped ${after} ms after the cancel, by the poll every 200 ms`);
});

t.test(
  'a node waiting out a store outage hands the message back when it closes; another node computes it once the store answers',
  async (t) => {
    const { store, faults, bus, solver, node } = setUp(t);
    await runningJob(store, 'job_3');
    faults.outage([jobStream('job_3'), jobBodyStream('job_3')], 60_000);
    const first = node();
    await first.start();
    await bus.publish(SOLVE_SUBJECT, 'job_3', { jobId: 'job_3' } satisfies SolveMessage);
    await until('the first node fails to read the job', () => faults.failures.count >= 2);
    const closing = Date.now();
    await first.close();
    t.ok(Date.now() - closing < 1000, `close() took ${Date.now() - closing} ms, not the retry's wait`);
    t.equal(solver.calls, 0, 'nothing computed');

    faults.outage([], 0);
    const lines: Record<string, any>[] = [];
    const second = node({
      log: pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) }),
    });
    await second.start();
    await until('the second node computes the job', () => solver.running.size === 1);
    const computing = lines.filter((l) => l['msg'] === 'computing');
    t.same(
      computing.map((l) => l['attempt']),
      [2],
      'the second delivery: the first node waited out the outage without spending attempts',
    );
    t.equal(solver.calls, 1);
  },
);
