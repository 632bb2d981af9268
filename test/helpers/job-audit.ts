/**
 * Reads the shared SQLite event log of a cluster's data dir and tells, per job, how often it
 * ended, was given a compute slot and was settled on its organization's ledger, what it was
 * charged, and when it ended: the exactly-once checks of the multi-process tests.
 */
import { join } from 'node:path';
import { SqliteEventStore } from '../../adapters/sqlite/event-store.js';
import { readLog } from '../../domain/ports/log-pages.js';

/** What the log holds about one job. */
export interface JobAudit {
  /** JobSucceeded + JobFailed events of the job's stream (1 when it ended exactly once). */
  ends: number;
  /** JobSucceeded events alone. */
  successes: number;
  /** JobStarted events (a compute slot) on its organization's ledger. */
  slots: number;
  /** JobSettled events on its organization's ledger (1 when charged exactly once). */
  settlements: number;
  /** Credits of its JobSettled events, summed (0 for a job not charged). */
  charged: number;
  /** `recordedAt` of its first end event (ms since epoch), NaN when it has not ended. */
  endedAt: number;
  /** Computing reports (`JobProgressed` with stage computing): how often a solver began it. */
  computeStarts: number;
}

/** Audits `jobIds` in the event log `<dataDir>/events.db` (opened and closed here). */
export async function auditJobs(dataDir: string, jobIds: readonly string[]): Promise<Map<string, JobAudit>> {
  const store = new SqliteEventStore(join(dataDir, 'events.db'));
  let events: Awaited<ReturnType<typeof readLog>>;
  try {
    events = await readLog(store);
  } finally {
    await store.close();
  }
  const audits = new Map<string, JobAudit>(
    jobIds.map((id) => [
      id,
      { ends: 0, successes: 0, slots: 0, settlements: 0, charged: 0, endedAt: Number.NaN, computeStarts: 0 },
    ]),
  );
  for (const e of events) {
    const data = e.data as { jobId?: string; charged?: number; stage?: string };
    const audit = data.jobId === undefined ? undefined : audits.get(data.jobId);
    if (!audit) continue;
    const onLedger = e.stream.startsWith('ledger-');
    if (!onLedger && (e.type === 'JobSucceeded' || e.type === 'JobFailed')) {
      audit.ends++;
      if (e.type === 'JobSucceeded') audit.successes++;
      if (Number.isNaN(audit.endedAt)) audit.endedAt = Date.parse(e.recordedAt);
    } else if (onLedger && e.type === 'JobStarted') audit.slots++;
    else if (onLedger && e.type === 'JobSettled') {
      audit.settlements++;
      audit.charged += data.charged ?? 0;
    } else if (!onLedger && e.type === 'JobProgressed' && data.stage === 'computing') audit.computeStarts++;
  }
  return audits;
}
