/**
 * A prefetched solve command on NATS (service/solver-node/node.ts `prefetch`): a node with one compute slot
 * and a prefetch of one computes one job and holds a second message while it waits for the slot.
 * The held message is kept alive with `working()`: three ack waits later another consumer still
 * has not received it; when the node closes (SIGTERM) it hands the message back at once (`nak(0)`)
 * and the other consumer receives it within a second. The same holds for a message whose job
 * cannot be read while the store is down: the node keeps it past the ack wait and computes it on
 * its first delivery once the store answers. Real nats-server, short ack wait.
 */
import t from 'tap';
import { setTimeout as delay } from 'node:timers/promises';
import { pino } from 'pino';
import { NatsBus } from '../../../adapters/nats/bus.js';
import { SqliteEventStore } from '../../../adapters/sqlite/event-store.js';
import { SOLVE_SUBJECT, type SolveMessage } from '../../../domain/job/process.js';
import { jobBodyStream, jobStream } from '../../../domain/job/streams.js';
import { SolverNode } from '../../../service/solver-node/node.js';
import { jobStoreFaults } from '../../helpers/job-store-faults.js';
import { natsServerBinary, startNatsServer } from '../../helpers/nats-server.js';
import { EndlessSolver, runningJob, until } from '../../helpers/running-job.js';

const ACK_WAIT_MS = 1500;

if (!natsServerBinary()) {
  t.plan(0, 'nats-server is not on PATH: NATS solver node tests skipped (apt-get install -y nats-server)');
} else {
  const server = await startNatsServer();
  t.teardown(() => server.stop());

  t.test(
    'a message waiting for a compute slot stays with its node past the ack wait; close() hands it to another node at once',
    async (t) => {
      // The buses' own log at error level: a consume loop that failed would write here.
      const errors: string[] = [];
      const log = pino({ level: 'error' }, { write: (line: string) => void errors.push(line) });
      const connect = () => NatsBus.connect({ servers: server.url, ackWaitMs: ACK_WAIT_MS, log });
      const store = new SqliteEventStore(':memory:');
      t.teardown(() => store.close());
      await runningJob(store, 'job_computing', 'org_a');
      await runningJob(store, 'job_waiting', 'org_b');

      const busA = await connect();
      t.teardown(() => busA.close());
      const solver = new EndlessSolver();
      const node = new SolverNode({
        store,
        bus: busA,
        solver,
        clock: () => new Date().toISOString(),
        log: pino({ level: 'silent' }),
        concurrency: 1,
        prefetch: 1,
      });
      t.teardown(() => node.close());
      await node.start();
      await busA.publish(SOLVE_SUBJECT, 'job_computing', { jobId: 'job_computing' } satisfies SolveMessage);
      await until('the first job computes', () => solver.running.size === 1);
      await busA.publish(SOLVE_SUBJECT, 'job_waiting', { jobId: 'job_waiting' } satisfies SolveMessage);
      await until('the second job waits for the slot', () => node.load().waiting === 1);
      t.same(node.load(), { computing: 1, waiting: 1 });

      // Another node: it takes whatever the bus hands it.
      const busB = await connect();
      t.teardown(() => busB.close());
      const received: { id: string; at: number; attempt: number }[] = [];
      const other = busB.consume<SolveMessage>(
        SOLVE_SUBJECT,
        async (m) => {
          received.push({ id: m.id, at: Date.now(), attempt: m.attempt });
          m.ack();
        },
        2,
      );
      t.teardown(() => other.close());

      // The observation window (not a wait for a state): three ack waits, each of which would have
      // handed an unattended message to the other node.
      await delay(3 * ACK_WAIT_MS);
      t.same(received, [], `after ${3 * ACK_WAIT_MS} ms the other node has received nothing`);
      t.same(node.load(), { computing: 1, waiting: 1 }, 'the first node still holds both');
      t.equal(solver.calls, 1, 'one search so far');

      const closing = Date.now();
      await node.close();
      await until(
        'the other node receives the waiting message',
        () => received.some((r) => r.id === 'job_waiting'),
        10_000,
      );
      const waiting = received.find((r) => r.id === 'job_waiting')!;
      t.ok(
        waiting.at - closing >= 0 && waiting.at - closing <= 1000,
        `received ${waiting.at - closing} ms after close() began`,
      );
      await until(
        'the other node receives the computing one too',
        () => received.some((r) => r.id === 'job_computing'),
        10_000,
      );
      const computing = received.find((r) => r.id === 'job_computing')!;
      t.ok(
        computing.at - closing >= 0 && computing.at - closing <= 1000,
        'the aborted search is handed back at once as well',
      );
      t.equal(waiting.attempt, 2, 'a second delivery (the first node held the first)');
      t.same(errors, [], 'no error logged by either bus');
    },
  );

  t.test(
    'a message whose job cannot be read while the store is down stays with its node past the ack wait; computed on its first delivery',
    async (t) => {
      // The same stream and durable consumer as the test before, which left no message unacked.
      const connect = () => NatsBus.connect({ servers: server.url, ackWaitMs: ACK_WAIT_MS });
      const inner = new SqliteEventStore(':memory:');
      t.teardown(() => inner.close());
      const faults = jobStoreFaults();
      await runningJob(inner, 'job_outage');
      const OUTAGE_MS = 3 * ACK_WAIT_MS + 500;

      const busA = await connect();
      t.teardown(() => busA.close());
      const solver = new EndlessSolver();
      const lines: Record<string, any>[] = [];
      const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
      const node = new SolverNode({
        store: faults.decorate(inner),
        bus: busA,
        solver,
        clock: () => new Date().toISOString(),
        log,
        concurrency: 1,
      });
      t.teardown(() => node.close());
      await node.start();
      faults.outage([jobStream('job_outage'), jobBodyStream('job_outage')], OUTAGE_MS);
      const outageFrom = Date.now();
      await busA.publish(SOLVE_SUBJECT, 'job_outage', { jobId: 'job_outage' } satisfies SolveMessage);
      await until('the node fails to read the job', () => faults.failures.count >= 1);

      const busB = await connect();
      t.teardown(() => busB.close());
      const received: string[] = [];
      const other = busB.consume<SolveMessage>(SOLVE_SUBJECT, async (m) => {
        received.push(m.id);
        m.ack();
      });
      await until('the job computes once the store answers', () => solver.running.size === 1, 30_000);
      t.ok(Date.now() - outageFrom >= OUTAGE_MS, 'after the outage');
      t.ok(faults.failures.count >= 3, `the node's reads failed ${faults.failures.count} times`);
      t.same(received, [], `the other node received nothing in ${Date.now() - outageFrom} ms (more than 3 ack waits)`);
      t.same(
        lines.filter((l) => l['msg'] === 'computing').map((l) => l['attempt']),
        [1],
        'computed on the first delivery',
      );
      await other.close();
    },
  );
}
