/**
 * Waiting for a job of an in-process service to reach a known state, instead of sleeping: the
 * job's read model is checked at once and after every applied event, so a test goes on as soon
 * as the state holds however slow the machine is, and fails with the job's last state if it never
 * does within `timeoutMs` (generous: only a hang should reach it).
 */
import type { Services } from '../../api/http/services.js';
import { JOBS, type JobDocument } from '../../projections/jobs/job-document.js';

/** Resolves with the job once `reached(job)` holds; throws after `timeoutMs` (ms) naming `what`. */
export async function untilJob(
  services: Services,
  jobId: string,
  what: string,
  reached: (job: JobDocument) => boolean,
  timeoutMs = 60_000,
): Promise<JobDocument> {
  const jobs = services.reads.collection<JobDocument>(JOBS);
  const now = await jobs.get(jobId);
  if (now && reached(now)) return now;
  return new Promise((resolve, reject) => {
    let checking = false;
    let again = false;
    const timer = setTimeout(() => {
      off();
      void jobs
        .get(jobId)
        .then((job) => reject(new Error(`job ${jobId} not ${what} within ${timeoutMs} ms: ${JSON.stringify(job)}`)));
    }, timeoutMs);
    const check = (): void => {
      if (checking) {
        again = true;
        return;
      }
      checking = true;
      void jobs.get(jobId).then((job) => {
        checking = false;
        if (job && reached(job)) {
          clearTimeout(timer);
          off();
          resolve(job);
        } else if (again) {
          again = false;
          check();
        }
      });
    };
    const off = services.projections.onApplied(() => check());
    // The state may have been reached between the first read and the subscription.
    check();
  });
}

/** The job has a compute slot (status running). */
export const running = (job: JobDocument): boolean => job.status === 'running';

/** A solver really searches for the job: compute billing has started (spec: compute used). */
export const computing = (job: JobDocument): boolean => job.status === 'running' && Boolean(job.computeStartedAt);
