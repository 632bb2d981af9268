/**
 * The solver node through an event store outage (DESIGN §4.3, infrastructure errors are not
 * attempts), on the real embedded service with a fault-injecting decorator around the store port:
 * - the store unreachable for longer than MAX_SOLVE_ATTEMPTS × the old nak delay (1 s) right when
 *   a job is dispatched: the node holds the message and retries; the job succeeds on its first
 *   delivery and is charged once;
 * - the store unreachable when the outcome is stored: the outcome is stored after recovery
 *   without a second search.
 * The log holds one line when the outage begins and one when it ends, not one per retry.
 */
import t from 'tap';
import { pino } from 'pino';
import { jobBodyStream, jobStream } from '../../../domain/job/streams.js';
import { ledgerStream } from '../../../domain/ledger/streams.js';
import { MAX_SOLVE_ATTEMPTS } from '../../../service/solver-node/node.js';
import { call } from '../../helpers/service-process.js';
import { untilJob } from '../../helpers/job-state.js';
import { inProcessService, orgWithKey } from '../../helpers/in-process-service.js';
import { jobStoreFaults } from '../../helpers/job-store-faults.js';

/** The old redelivery delay after a failed store read, ms: MAX_SOLVE_ATTEMPTS of them used to fail the job. */
const OLD_NAK_DELAY_MS = 1000;
const OUTAGE_MS = (MAX_SOLVE_ATTEMPTS + 1) * OLD_NAK_DELAY_MS;

/** The service's log lines (pino JSON), as parsed objects. */
const lines: Record<string, any>[] = [];
const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
const faults = jobStoreFaults();
const svc = inProcessService(t, 'node-store-outage', { decorateStore: (store) => faults.decorate(store), log });

const tiny = {
  vehicles: [{ vehicle_id: 'rigid-7-5t' }],
  items: [{ id: 'carton', length: 60, width: 40, height: 40, weight: 12, quantity: 4 }],
};
/** Ended and settled on the ledger (the charge is known). */
const ended = (job: { status: string; chargedMicros: number | null }): boolean =>
  job.status !== 'queued' && job.status !== 'running' && job.chargedMicros !== null;

/** Log lines with message `msg` (about job `jobId` when given). */
const logged = (msg: string, jobId?: string) =>
  lines.filter((l) => l['msg'] === msg && (jobId === undefined || l['jobId'] === jobId));

/** JobSettled events of the job on its organization's ledger (one: charged once). */
async function settlements(orgId: string, jobId: string): Promise<number> {
  const events = await svc.service.services.store.readStream(ledgerStream(orgId));
  return events.filter((e) => e.type === 'JobSettled' && (e.data as { jobId: string }).jobId === jobId).length;
}

t.test(
  `the store unreachable for ${OUTAGE_MS} ms when the job is dispatched: it succeeds on its first delivery, charged once`,
  async (t) => {
    const org = await orgWithKey(svc.service);
    let outageFrom = 0;
    faults.afterAppend = (stream, events) => {
      // The job has its slot and its solve command is on its way: from now its streams are unreachable.
      if (stream.startsWith('job-') && events.some((e) => e.type === 'JobStarted')) {
        faults.afterAppend = undefined;
        const jobId = stream.slice('job-'.length);
        outageFrom = Date.now();
        faults.outage([jobStream(jobId), jobBodyStream(jobId)], OUTAGE_MS);
      }
    };
    const linesBefore = lines.length;
    const posted = await call(svc.service.url, org.key, 'POST', '/v1/pack', tiny);
    t.equal(posted.status, 202);
    const jobId: string = posted.body.id;
    const job = await untilJob(svc.service.services, jobId, 'ended', ended, 60_000);
    t.equal(job.status, 'succeeded', `succeeded, not ${job.status} ${JSON.stringify(job.error ?? null)}`);
    t.ok(faults.failures.count >= 3, `the node's reads failed ${faults.failures.count} times`);

    const computing = logged('computing', jobId);
    t.same(
      computing.map((l) => l['attempt']),
      [1],
      'one search, on the first delivery (msg.attempt 1)',
    );
    t.ok(
      computing[0]!['time'] - outageFrom >= OUTAGE_MS,
      `the search began after the outage (${computing[0]!['time'] - outageFrom} ms after it began)`,
    );
    t.equal(logged('job solved', jobId).length, 1);
    t.equal(await settlements(org.orgId, jobId), 1, 'charged once');

    const since = lines.slice(linesBefore);
    t.equal(
      since.filter((l) => l['msg'] === 'event store unavailable: the solver keeps its solve commands and retries')
        .length,
      1,
      'one line when the outage began',
    );
    const back = since.filter((l) => l['msg'] === 'event store available again: the solver goes on');
    t.equal(back.length, 1, 'one line when it ended');
    t.ok(
      back[0]!['failures'] >= 3 && back[0]!['outageMs'] >= OUTAGE_MS - 1000,
      `the recovery line tells the streak: ${JSON.stringify(back[0])}`,
    );
    t.equal(since.filter((l) => /delivered again|will retry/.test(String(l['msg']))).length, 0, 'no line per retry');
  },
);

t.test(
  'the store unreachable when the outcome is stored: stored after recovery, without a second search',
  async (t) => {
    const org = await orgWithKey(svc.service);
    const OUTCOME_OUTAGE_MS = 3000;
    let outageFrom = 0;
    faults.beforeAppend = (stream, events) => {
      // The search has finished: its result and the job's success cannot be written for a while.
      if (events.some((e) => e.type === 'ResultStored')) {
        faults.beforeAppend = undefined;
        const jobId = stream.slice('jobbody-'.length);
        outageFrom = Date.now();
        faults.outage([jobStream(jobId), jobBodyStream(jobId)], OUTCOME_OUTAGE_MS);
      }
    };
    const failuresBefore = faults.failures.count;
    const posted = await call(svc.service.url, org.key, 'POST', '/v1/pack', tiny);
    const jobId: string = posted.body.id;
    const job = await untilJob(svc.service.services, jobId, 'ended', ended, 60_000);
    t.equal(job.status, 'succeeded');
    t.ok(outageFrom > 0, 'the outage began when the result was stored');
    t.ok(faults.failures.count - failuresBefore >= 2, `storing failed ${faults.failures.count - failuresBefore} times`);
    t.same(
      logged('computing', jobId).map((l) => l['attempt']),
      [1],
      'one search',
    );
    const solved = logged('job solved', jobId);
    t.equal(solved.length, 1);
    t.ok(solved[0]!['time'] - outageFrom >= OUTCOME_OUTAGE_MS, 'stored once the store answered again');
    const results = (await svc.service.services.store.readStream(jobBodyStream(jobId))).filter(
      (e) => e.type === 'ResultStored',
    );
    t.equal(results.length, 1, 'one result');
    t.equal(await settlements(org.orgId, jobId), 1, 'charged once');
  },
);
