/**
 * Cancellation pushed to the solver node (DESIGN §4.3): on the real embedded service a job
 * canceled through the API stops computing within a second, told by the scheduler's job-ended
 * signal on the bus (domain/job/process.ts JOB_ENDED_SIGNAL), and while it computes the node does
 * not read the job's stream to look for a cancel (the fallback poll runs every 15 s). Reads of the
 * job stream are counted by a decorator around the store port.
 */
import t from 'tap';
import { setTimeout as delay } from 'node:timers/promises';
import { pino } from 'pino';
import { jobStream } from '../../../domain/job/streams.js';
import { END_POLL_MS } from '../../../service/solver-node/node.js';
import { call } from '../../helpers/service-process.js';
import { computing, untilJob } from '../../helpers/job-state.js';
import { inProcessService, orgWithKey } from '../../helpers/in-process-service.js';
import { jobStoreFaults } from '../../helpers/job-store-faults.js';

/** The service's log lines (pino JSON), as parsed objects. */
const lines: Record<string, any>[] = [];
const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
const faults = jobStoreFaults();
const svc = inProcessService(t, 'node-cancel-signal', { decorateStore: (store) => faults.decorate(store), log });

/** A load that never fits one van: its search runs the whole budget (test/api/fair-compute.test.ts). */
const long = {
  vehicles: [{ vehicle_id: 'van-3-5t' }],
  items: Array.from({ length: 200 }, (_, i) => ({
    id: `sku-${i}`,
    length: 20 + (i % 37),
    width: 15 + (i % 23),
    height: 10 + (i % 29),
    weight: 3,
    quantity: 10,
  })),
  options: { packing_mode: 'fleet_only', time_limit: 60 },
};

/** How long the test watches the node compute, ms: the old poll read the job stream once a second. */
const WATCH_MS = 4000;

t.test(
  'a job canceled through the API stops computing within 1 s; no per-second reads of its stream meanwhile',
  async (t) => {
    t.ok(END_POLL_MS > WATCH_MS + 5000, 'the fallback poll cannot fire within the watch (nor stop the search in time)');
    const org = await orgWithKey(svc.service);
    const posted = await call(svc.service.url, org.key, 'POST', '/v1/pack', long);
    t.equal(posted.status, 202);
    const jobId: string = posted.body.id;
    const stream = jobStream(jobId);
    let progressWrites = 0;
    faults.afterAppend = (s, events) => {
      if (s === stream) progressWrites += events.filter((e) => e.type === 'JobProgressed').length;
    };
    await untilJob(svc.service.services, jobId, 'computing', computing);
    const readsBefore = faults.reads.get(stream) ?? 0;
    const progressBefore = progressWrites;
    // The observation window (not a wait for a state): a poll every second would read 4 times here.
    await delay(WATCH_MS);
    const reads = (faults.reads.get(stream) ?? 0) - readsBefore;
    const progress = progressWrites - progressBefore;
    // Each progress report is a command on the stream: at most one read (the events since the
    // cached state) per write; a write at the window's start may have read before it.
    t.ok(
      reads <= progress,
      `no reads of the job stream but its progress writes' own (${reads} reads, ${progress} progress writes in ${WATCH_MS} ms)`,
    );

    const canceledAt = Date.now();
    const canceled = await call(svc.service.url, org.key, 'DELETE', `/v1/jobs/${jobId}`);
    t.equal(canceled.status, 200);
    t.equal(canceled.body.status, 'canceled');
    const stopped = await untilLogged('search stopped: the job ended elsewhere', jobId);
    t.ok(
      stopped['time'] - canceledAt <= 1000,
      `the search stopped ${stopped['time'] - canceledAt} ms after the cancel request`,
    );
    t.ok(stopped['computeMs'] >= WATCH_MS, 'it had been computing');
  },
);

/** Resolves with the first log line `msg` about `jobId`; throws after 30 s (only a hang reaches it). */
async function untilLogged(msg: string, jobId: string): Promise<Record<string, any>> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const line = lines.find((l) => l['msg'] === msg && l['jobId'] === jobId);
    if (line) return line;
    if (Date.now() > deadline) throw new Error(`no "${msg}" for ${jobId} within 30 s`);
    await delay(20);
  }
}
