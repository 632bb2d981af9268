/**
 * Waiting for a job to end (spec `?wait=`): resolves with the job once it is final and its
 * charge is settled, or with its current state when `timeoutMs` passes. No polling: it listens
 * to the projection runner.
 */
import type { JobDocument } from '../../../projections/jobs/job-document.js';
import { readJob, type HotReadPorts } from '../../../projections/read-model-cache.js';
import type { UseCasePorts } from '../../../application/ports.js';

/** Most seconds `?wait=` may ask for (spec Limits). */
export const MAX_WAIT_SECONDS = 60;

const done = (job: JobDocument): boolean =>
  (job.status === 'succeeded' || job.status === 'failed' || job.status === 'canceled') && job.chargedMicros !== null;

/**
 * The job `jobId` once it ended and its charge is settled, or as it is after `timeoutMs`;
 * undefined when the read models do not hold it. `known`: the job as the caller just read it
 * (saves a read when it has ended or no wait is asked). Reads go through the process's read-model
 * cache when it has one: it drops the job when an event naming it is applied, before this
 * function's own listener hears of that event.
 */
export async function waitForJobEnd(
  ctx: Pick<UseCasePorts, 'projections'> & HotReadPorts,
  jobId: string,
  timeoutMs: number,
  known?: JobDocument,
): Promise<JobDocument | undefined> {
  const current = known ?? (await readJob(ctx, jobId));
  if (!current || done(current) || timeoutMs <= 0) return current;
  return new Promise((resolve) => {
    let checking = false;
    const finish = async (): Promise<void> => {
      clearTimeout(timer);
      off();
      resolve(await readJob(ctx, jobId));
    };
    const timer = setTimeout(() => void finish(), timeoutMs);
    const off = ctx.projections.onApplied((event) => {
      if ((event.data as { jobId?: string }).jobId !== jobId || checking) return;
      checking = true;
      void readJob(ctx, jobId).then((job) => {
        checking = false;
        if (job && done(job)) void finish();
      });
    });
  });
}

/**
 * Parses `?wait=` seconds (0–60, decimals allowed). Returns ms, or throws DomainError 422
 * through the caller when invalid: returns null for an invalid value.
 */
export function parseWait(raw: unknown): number | null {
  if (raw === undefined) return 0;
  if (typeof raw !== 'string' || !/^\d+(\.\d+)?$/.test(raw)) return null;
  const seconds = Number(raw);
  return seconds > MAX_WAIT_SECONDS ? null : Math.round(seconds * 1000);
}
