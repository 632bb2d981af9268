/**
 * Compares the billing audit (domain/billing-audit, an independent fold of the raw log) with the
 * read models the projections built from the same events: balances per organization, charges
 * per job. Every difference is reported; none is expected.
 */
import { availableAt, heldAt, usableAt, type AuditReport } from '../../domain/billing-audit/audit.js';
import { availableCredits, heldCredits, usableSubscription } from '../../domain/ledger/ledger.js';
import type { ReadStore } from '../../domain/ports/read-store.js';
import { BALANCES, type BalanceDocument } from '../balances/projection.js';
import { JOBS, type JobDocument } from '../jobs/job-document.js';

/** One organization's line of the audit table (micro-credits). */
export interface AuditLine {
  orgId: string;
  name: string;
  subscription: number;
  purchased: number;
  reserved: number;
  available: number;
  jobsSettled: number;
  charged: number;
  differences: string[];
}

export async function compareWithReadModels(
  report: AuditReport,
  reads: ReadStore,
  onlyOrg?: string,
): Promise<AuditLine[]> {
  const balances = reads.collection<BalanceDocument>(BALANCES);
  const jobs = reads.collection<JobDocument>(JOBS);
  const lines: AuditLine[] = [];
  const at = report.asOf;
  for (const org of report.organizations.values()) {
    if (onlyOrg && org.orgId !== onlyOrg) continue;
    const differences: string[] = [];
    const audit = {
      subscription: usableAt(org, at),
      purchased: org.purchased,
      reserved: heldAt(org, at),
      available: availableAt(org, at),
    };
    const doc = await balances.get(org.orgId);
    if (doc) {
      const model = {
        subscription: usableSubscription(doc, at),
        purchased: doc.purchased,
        reserved: heldCredits(doc, at),
        available: availableCredits(doc, at),
      };
      for (const k of Object.keys(audit) as (keyof typeof audit)[]) {
        if (audit[k] !== model[k]) differences.push(`${k}: audit ${audit[k]}, read model ${model[k]}`);
      }
    } else if (audit.subscription + audit.purchased + audit.reserved !== 0) {
      differences.push('no balance in the read model');
    }
    for (const job of report.jobs.values()) {
      if (job.orgId !== org.orgId) continue;
      const jd = await jobs.get(job.jobId);
      if (!jd) {
        if (job.outcome !== null) differences.push(`job ${job.jobId}: missing from the read model`);
        continue;
      }
      if ((jd.chargedMicros ?? null) !== job.charged)
        differences.push(`job ${job.jobId}: charged ${jd.chargedMicros} in the read model, ${job.charged} in the log`);
      if (job.expected && jd.breakdown && JSON.stringify(jd.breakdown) !== JSON.stringify(job.expected)) {
        differences.push(
          `job ${job.jobId}: breakdown ${JSON.stringify(jd.breakdown)} in the read model, ${JSON.stringify(job.expected)} by the rules`,
        );
      }
    }
    for (const p of report.problems)
      if (p.includes(org.orgId) || [...report.jobs.values()].some((j) => j.orgId === org.orgId && p.includes(j.jobId)))
        differences.push(p);
    lines.push({
      orgId: org.orgId,
      name: org.name,
      ...audit,
      jobsSettled: org.jobsSettled,
      charged: org.chargedTotal,
      differences,
    });
  }
  return lines;
}
