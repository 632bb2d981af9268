/**
 * Cancellation across processes (DESIGN §4.3; multi-process profile, test/helpers/local-cluster.ts):
 * a job canceled through an API process stops computing on the solver node's process within a few
 * seconds, told by the scheduler process's job-ended signal over core NATS (`signals.job-ended`),
 * long before the node's fallback poll (every 15 s) would notice.
 */
import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { END_POLL_MS } from '../../service/solver-node/node.js';
import { provisionClusterOrganization, startLocalCluster, type LocalCluster } from '../helpers/local-cluster.js';
import { natsServerBinary } from '../helpers/nats-server.js';
import { call } from '../helpers/service-process.js';

t.setTimeout(300_000);

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

/**
 * Longest time from the cancel request to the stopped search, ms: the scheduler process follows
 * the shared SQLite log by polling (250 ms), and four processes share two cores with other test
 * files; far below the fallback poll.
 */
const STOP_BOUND_MS = 3000;

if (!natsServerBinary()) {
  t.pass('skipped: no nats-server', { skip: "nats-server is not installed (bash .ci/run installs Debian's)" });
} else {
  const dataDir = mkdtempSync(join(tmpdir(), 'packing-cancel-signal-'));
  let cluster: LocalCluster | undefined;
  t.teardown(async () => {
    await cluster?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  t.test('a job canceled through the API stops computing on the solver process by the job-ended signal', async (t) => {
    t.ok(STOP_BOUND_MS < END_POLL_MS, 'the bound is below the fallback poll');
    const org = await provisionClusterOrganization(dataDir, 'Cancel Freight');
    cluster = await startLocalCluster({ dataDir, apis: 1, cores: 1, solvers: 1 });
    const [api] = cluster.apis;
    const [solver] = cluster.solvers;
    const posted = await call(api!.url, org.key, 'POST', '/v1/pack', long);
    t.equal(posted.status, 202);
    const jobId: string = posted.body.id;
    await solver!.waitForLog((e) => e['msg'] === 'computing' && e['jobId'] === jobId);
    const canceledAt = Date.now();
    const canceled = await call(api!.url, org.key, 'DELETE', `/v1/jobs/${jobId}`);
    t.equal(canceled.status, 200);
    t.equal(canceled.body.status, 'canceled');
    const stopped = await solver!.waitForLog(
      (e) => e['msg'] === 'search stopped: the job ended elsewhere' && e['jobId'] === jobId,
      30_000,
    );
    const after = (stopped['time'] as number) - canceledAt;
    t.ok(after <= STOP_BOUND_MS, `the search stopped ${after} ms after the cancel request`);
  });
}
