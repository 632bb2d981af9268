/**
 * The scheduler's repair loop (domain/job/repair.ts): runs the repair tick every
 * repairIntervalMs(queueTimeout), one run at a time, and logs what each run did (queue timeouts,
 * solve commands published again, bodies past retention deleted, orphaned holds released,
 * Idempotency-Key claims settled, failed steps). When the bus comes back after an outage it runs
 * at once instead of up to one interval later, so solve commands that could not be published
 * meanwhile go out again.
 */
import type { Logger } from 'pino';
import { repairIntervalMs, type RepairTick } from '../domain/job/repair.js';

/** Starts the loop; `busBack` gets a listener for the bus's return until the stop. Returns the stop. */
export function startRepairLoop(
  tick: RepairTick,
  options: { queueTimeoutMs: number; log: Logger; busBack: Set<() => void> },
): () => void {
  const { log, busBack } = options;
  let repairing = false;
  /** A tick asked for while one runs (the bus came back): run it when that one ends. */
  let repairAgain = false;
  let stopped = false;
  const repair = (urgent: boolean): void => {
    if (stopped) return;
    if (repairing) {
      repairAgain ||= urgent;
      return;
    }
    repairing = true;
    void tick
      .run()
      .then((report) => {
        if (report.queueTimeouts > 0)
          log.warn({ expired: report.queueTimeouts }, 'queued jobs failed with queue_timeout');
        if (report.redispatched > 0)
          log.warn(
            { redispatched: report.redispatched },
            'published solve commands again for started jobs no solver took',
          );
        if (report.bodiesDeleted > 0)
          log.info({ jobs: report.bodiesDeleted }, 'deleted request and result bodies past retention');
        for (const jobId of report.orphansReleased)
          log.warn({ jobId }, 'released the credits held for a job that was never queued');
        for (const claim of report.claimsSettled)
          log.warn(claim, 'settled an Idempotency-Key claim left pending by a request that stopped');
        for (const { step, error } of report.errors)
          log.error({ err: error, step }, 'repair step failed; tried again next tick');
      })
      .catch((err: unknown) => log.error({ err }, 'repair tick failed'))
      .finally(() => {
        repairing = false;
        if (repairAgain) {
          repairAgain = false;
          repair(false);
        }
      });
  };
  const repairTimer = setInterval(() => repair(false), repairIntervalMs(options.queueTimeoutMs));
  const repairNow = (): void => repair(true);
  busBack.add(repairNow);
  return () => {
    stopped = true;
    busBack.delete(repairNow);
    clearInterval(repairTimer);
  };
}
