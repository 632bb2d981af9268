/**
 * `npm run bench -- nodes`: throughput of the multi-process profile with 1, 2, … solver-node
 * processes, side by side in one run. For each count: a fresh data dir, nats-server, two API
 * processes, one projector/scheduler and N solver nodes (test/helpers/local-cluster.ts); the same
 * batch of jobs (the examples cycled) for two organizations with 2 compute slots each; prints
 * jobs per minute from the first POST to the last settled job, and the compute the jobs reported.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { awaitBatch, jobBatch, submitBatch } from '../test/helpers/job-batch.js';
import { provisionClusterOrganization, startLocalCluster } from '../test/helpers/local-cluster.js';

/** Options of the `nodes` benchmark (strings from the command line). */
export interface NodesOptions {
  nodes: string;
  jobs: string;
  threads: string;
}

export async function benchNodes(options: NodesOptions): Promise<void> {
  const counts = options.nodes.split(',').map(Number);
  const jobs = Number(options.jobs);
  const batch = jobBatch(jobs);
  console.log(
    `${jobs} jobs (examples cycled), 2 API processes, 2 organizations x 2 compute slots, ${options.threads} worker thread(s) per node`,
  );
  console.log(['solver nodes', 'wall s', 'jobs/min', 'succeeded', 'compute s (sum)'].join('\t'));
  for (const n of counts) {
    const dataDir = mkdtempSync(join(tmpdir(), `bench-nodes-${n}-`));
    const orgs = [
      await provisionClusterOrganization(dataDir, 'Bench A', { concurrency: 2, maxQueuedJobs: jobs }),
      await provisionClusterOrganization(dataDir, 'Bench B', { concurrency: 2, maxQueuedJobs: jobs }),
    ];
    const cluster = await startLocalCluster({ dataDir, apis: 2, solvers: n, solverThreads: Number(options.threads) });
    try {
      const started = Date.now();
      const submitted = await submitBatch(
        batch,
        cluster.apis.map((a) => a.url),
        orgs.map((o) => o.key),
      );
      const ended = await awaitBatch(submitted, 30 * 60_000);
      const wallMs = Date.now() - started;
      const bodies = [...ended.values()] as { status: string; summary?: { compute_ms?: number } }[];
      const computeMs = bodies.reduce((sum, j) => sum + (j.summary?.compute_ms ?? 0), 0);
      console.log(
        [
          n,
          (wallMs / 1000).toFixed(1),
          ((jobs * 60_000) / wallMs).toFixed(1),
          bodies.filter((j) => j.status === 'succeeded').length,
          (computeMs / 1000).toFixed(1),
        ].join('\t'),
      );
    } finally {
      await cluster.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
}
