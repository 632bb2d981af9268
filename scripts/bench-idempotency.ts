/**
 * `npm run bench -- idempotency`: concurrent retries with one Idempotency-Key through HTTP against
 * a real service process (embedded profile, fresh data dir). Each round: a fresh organization,
 * then `--concurrency` identical POST /v1/pack with one key released together; prints per round
 * the jobs the log holds for the organization (the spec's promise: 1), the answers that created a
 * job, replayed one, or said 409, and the holds on the ledger. `--root` runs the service from
 * another checkout (a worktree of an earlier commit, for a before/after figure).
 *
 *   npm run bench -- idempotency [--rounds 5] [--concurrency 20] [--root DIR]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { awaitKey, countJobs, provisionRaceOrganizations, raceOneKey } from '../test/helpers/idempotency-race.js';
import { startServiceProcess } from '../test/helpers/service-process.js';

/** Options of the `idempotency` benchmark (strings from the command line). */
export interface IdempotencyOptions {
  rounds: string;
  concurrency: string;
  root?: string;
}

export async function benchIdempotency(options: IdempotencyOptions): Promise<void> {
  const rounds = Number(options.rounds);
  const concurrency = Number(options.concurrency);
  if (!Number.isInteger(rounds) || rounds < 1 || !Number.isInteger(concurrency) || concurrency < 1) {
    console.error('--rounds and --concurrency must be whole numbers ≥ 1');
    process.exitCode = 2;
    return;
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-idempotency-'));
  const service = await startServiceProcess(dataDir, {}, options.root);
  try {
    console.log(
      `${rounds} rounds x ${concurrency} concurrent POST /v1/pack with one Idempotency-Key, service from ${options.root ?? 'this checkout'}`,
    );
    console.log(['round', 'jobs in log', 'answered new', 'replayed', '409', 'other', 'holds'].join('\t'));
    const perRound: number[] = [];
    const orgs = await provisionRaceOrganizations(
      dataDir,
      Array.from({ length: rounds }, (_, i) => ({ name: `Race ${i + 1}` })),
    );
    await awaitKey([service.url], orgs[rounds - 1]!.key);
    for (let round = 1; round <= rounds; round++) {
      const org = orgs[round - 1]!;
      const { answers } = await raceOneKey([service.url], org.key, `retry-${round}`, concurrency);
      const counted = await countJobs(dataDir, org.orgId);
      const ok = answers.filter((a) => a.status === 200 || a.status === 202);
      const holds = [...counted.admitted.values()].reduce((a, b) => a + b, 0);
      perRound.push(counted.queuedJobIds.length);
      console.log(
        [
          round,
          counted.queuedJobIds.length,
          ok.filter((a) => !a.replayed).length,
          ok.filter((a) => a.replayed).length,
          answers.filter((a) => a.status === 409).length,
          answers.length - ok.length - answers.filter((a) => a.status === 409).length,
          holds,
        ].join('\t'),
      );
    }
    console.log(`jobs per round: ${perRound.join(', ')} (expected 1 each)`);
  } finally {
    await service.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
