/**
 * The billing audit (issue: audit replay): an independent fold of the raw event log that
 * recomputes every organization's balance and every job's charge, written from the spec's rules
 * ("Credits and pricing") and the rate card data alone — not from the ledger's evolve, the
 * pricing module or the projections — so that a bug in those shows up as a difference.
 * Amounts in micro-credits.
 */
import type { RecordedEvent } from '../ports/event-store.js';
import { RATE_CARDS } from '../ledger/rate-card.js';
import { isJobStream } from '../job/streams.js';
import { ledgerOrgId } from '../ledger/streams.js';
import { orgIdOfStream } from '../organization/streams.js';

/** One component-wise charge. */
export interface AuditCharge {
  base: number;
  vehicles: number;
  compute: number;
  large_load: number;
}

export interface AuditJob {
  jobId: string;
  orgId: string;
  units: number;
  budgetMs: number;
  rateCardVersion: number;
  reserved: number | null;
  /** `succeeded`, or the failure code (`canceled`, `time_limit_exceeded`, …); null while open. */
  outcome: string | null;
  computeMs: number;
  vehiclesUsed: number;
  /** What the rules say the job costs (null until it ended). */
  expected: AuditCharge | null;
  /** What the ledger charged (null until settled). */
  charged: number | null;
  breakdown: AuditCharge | null;
  settlements: number;
}

export interface AuditOrganization {
  orgId: string;
  name: string;
  subscription: number;
  subscriptionExpiresAt: string | null;
  purchased: number;
  /** Open reservations by job. */
  reservations: Map<string, number>;
  jobsSettled: number;
  chargedTotal: number;
}

/**
 * The fields of the audited events' data this audit reads (OrganizationCreated, JobQueued, JobSucceeded,
 * JobFailed and the ledger events); each event carries only its own, read as recorded.
 */
interface AuditedEventData {
  orgId: string;
  name: string;
  jobId: string;
  /** Units of the job. */
  items: number;
  budgetMs: number;
  rateCardVersion: number;
  /** The failure code of JobFailed. */
  code: string;
  computeMs: number;
  summary: { vehicles_used: number };
  /** Credits. */
  amount: number;
  expiresAt: string;
  expiredAt: string;
  /** Credits. */
  reserved: number;
  admittedAt: string;
  /** Credits. */
  charged: number;
  breakdown: AuditCharge;
  outcome: string;
  settledAt: string;
  /** Credits. */
  fromSubscription: number;
  /** Credits. */
  fromPurchased: number;
}

export interface AuditReport {
  asOf: string;
  organizations: Map<string, AuditOrganization>;
  jobs: Map<string, AuditJob>;
  /** Broken rules found in the log itself. */
  problems: string[];
  /** Jobs that ended but whose settlement is not in the log yet (repaired at the next start). */
  pendingSettlements: string[];
}

/** Subscription credits usable at `at`. */
export function usableAt(org: AuditOrganization, at: string): number {
  return org.subscriptionExpiresAt !== null && org.subscriptionExpiresAt <= at ? 0 : org.subscription;
}

/** Credits held at `at`: open reservations, but never more than the funds (subscription + purchased). */
export function heldAt(org: AuditOrganization, at: string): number {
  let reserved = 0;
  for (const r of org.reservations.values()) reserved += r;
  return Math.min(reserved, usableAt(org, at) + org.purchased);
}

/** Available credits at `at`: subscription + purchased − held (spec Balance). */
export function availableAt(org: AuditOrganization, at: string): number {
  return usableAt(org, at) + org.purchased - heldAt(org, at);
}

/** The spec's settlement table, computed from the rate card data. */
function expectedCharge(job: AuditJob): AuditCharge {
  // Failures, and holds released for jobs never queued (whose rate card the log does not name), cost nothing.
  const charged = job.outcome === 'succeeded' || job.outcome === 'canceled' || job.outcome === 'time_limit_exceeded';
  if (!charged) return { base: 0, vehicles: 0, compute: 0, large_load: 0 };
  const card = RATE_CARDS[job.rateCardVersion];
  if (!card) return { base: Number.NaN, vehicles: 0, compute: 0, large_load: 0 };
  const billedMs = Math.min(Math.max(job.computeMs, 0), job.budgetMs);
  const compute = Math.floor((billedMs * card.perComputeSecond) / 1000);
  const blocks = job.units > card.largeLoadThreshold ? Math.ceil((job.units - card.largeLoadThreshold) / 100) : 0;
  const largeLoad = blocks * card.perLargeLoadBlock;
  let charge: AuditCharge;
  if (job.outcome === 'succeeded')
    charge = { base: card.base, vehicles: job.vehiclesUsed * card.perVehicle, compute, large_load: largeLoad };
  else if (job.outcome === 'canceled') charge = { base: card.base, vehicles: 0, compute, large_load: 0 };
  else charge = { base: card.base, vehicles: 0, compute, large_load: largeLoad }; // time_limit_exceeded
  const sum = charge.base + charge.vehicles + charge.compute + charge.large_load;
  const over = sum - (job.reserved ?? sum);
  return over > 0 ? { ...charge, compute: Math.max(0, charge.compute - over) } : charge;
}

const sumOf = (c: AuditCharge): number => c.base + c.vehicles + c.compute + c.large_load;
const sameCharge = (a: AuditCharge, b: AuditCharge): boolean =>
  a.base === b.base && a.vehicles === b.vehicles && a.compute === b.compute && a.large_load === b.large_load;

/**
 * Folds the log (in position order) up to and including `asOf` (RFC 3339; default: everything).
 * Never throws on odd events: it reports them as problems.
 */
export function auditLog(events: Iterable<RecordedEvent>, asOf?: string): AuditReport {
  const organizations = new Map<string, AuditOrganization>();
  const jobs = new Map<string, AuditJob>();
  const problems: string[] = [];
  let last = '';
  const orgOf = (orgId: string): AuditOrganization => {
    let org = organizations.get(orgId);
    if (!org) {
      org = {
        orgId,
        name: '',
        subscription: 0,
        subscriptionExpiresAt: null,
        purchased: 0,
        reservations: new Map(),
        jobsSettled: 0,
        chargedTotal: 0,
      };
      organizations.set(orgId, org);
    }
    return org;
  };

  for (const e of events) {
    if (asOf !== undefined && e.recordedAt > asOf) break;
    last = e.recordedAt;
    const d = e.data as AuditedEventData;
    if (orgIdOfStream(e.stream) !== undefined) {
      if (e.type === 'OrganizationCreated') orgOf(d['orgId']).name = d['name'];
      continue;
    }
    if (isJobStream(e.stream)) {
      if (e.type === 'JobQueued') {
        jobs.set(d['jobId'], {
          jobId: d['jobId'],
          orgId: d['orgId'],
          units: d['items'],
          budgetMs: d['budgetMs'],
          rateCardVersion: d['rateCardVersion'],
          reserved: jobs.get(d['jobId'])?.reserved ?? null,
          outcome: null,
          computeMs: 0,
          vehiclesUsed: 0,
          expected: null,
          charged: null,
          breakdown: null,
          settlements: 0,
        });
      } else if (e.type === 'JobSucceeded' || e.type === 'JobFailed') {
        const job = jobs.get(d['jobId']);
        if (!job) {
          problems.push(`${e.stream}: ${e.type} for a job never queued`);
          continue;
        }
        if (job.outcome !== null) problems.push(`job ${job.jobId} ended twice`);
        job.outcome = e.type === 'JobSucceeded' ? 'succeeded' : d['code'];
        job.computeMs = d['computeMs'];
        job.vehiclesUsed = e.type === 'JobSucceeded' ? d['summary']['vehicles_used'] : 0;
      }
      continue;
    }
    const ledgerOrg = ledgerOrgId(e.stream);
    if (ledgerOrg === undefined) continue;
    const org = orgOf(ledgerOrg);
    switch (e.type) {
      case 'SubscriptionCreditsGranted':
        org.subscription = d['amount'];
        org.subscriptionExpiresAt = d['expiresAt'];
        break;
      case 'SubscriptionCreditsExpired':
        org.subscription = 0;
        org.subscriptionExpiresAt = d['expiredAt'];
        break;
      case 'CreditsPurchased':
        org.purchased += d['amount'];
        break;
      case 'JobAdmitted': {
        if (org.reservations.has(d['jobId'])) problems.push(`job ${d['jobId']} admitted twice`);
        if (d['reserved'] > availableAt(org, d['admittedAt'])) {
          problems.push(
            `job ${d['jobId']}: reserved ${d['reserved']} with only ${availableAt(org, d['admittedAt'])} available`,
          );
        }
        org.reservations.set(d['jobId'], d['reserved']);
        const job = jobs.get(d['jobId']);
        if (job) job.reserved = d['reserved'];
        else
          jobs.set(d['jobId'], {
            jobId: d['jobId'],
            orgId: org.orgId,
            units: 0,
            budgetMs: 0,
            rateCardVersion: 0,
            reserved: d['reserved'],
            outcome: null,
            computeMs: 0,
            vehiclesUsed: 0,
            expected: null,
            charged: null,
            breakdown: null,
            settlements: 0,
          });
        break;
      }
      case 'JobSettled': {
        const jobId = d['jobId'];
        const reserved = org.reservations.get(jobId);
        const job = jobs.get(jobId);
        if (reserved === undefined) {
          problems.push(`job ${jobId}: settled without an open reservation (admitted? settled twice?)`);
          break;
        }
        if (!job) {
          problems.push(`job ${jobId}: settled but unknown`);
          break;
        }
        job.settlements += 1;
        const outcome = job.outcome ?? 'server_restarted'; // admitted, never queued: released free
        const expected = expectedCharge({ ...job, outcome, reserved });
        job.expected = expected;
        job.charged = d['charged'];
        job.breakdown = d['breakdown'];
        if (d['outcome'] !== outcome)
          problems.push(`job ${jobId}: settled as ${d['outcome']}, but the job ended ${outcome}`);
        if (!sameCharge(expected, d['breakdown'])) {
          problems.push(
            `job ${jobId}: breakdown ${JSON.stringify(d['breakdown'])} differs from the rules' ${JSON.stringify(expected)}`,
          );
        }
        if (d['charged'] > reserved)
          problems.push(`job ${jobId}: charged ${d['charged']} above its reservation ${reserved}`);
        const fromSubscription = Math.min(sumOf(expected), usableAt(org, d['settledAt']));
        const fromPurchased = Math.min(sumOf(expected) - fromSubscription, org.purchased);
        if (
          d['fromSubscription'] !== fromSubscription ||
          d['fromPurchased'] !== fromPurchased ||
          d['charged'] !== fromSubscription + fromPurchased
        ) {
          problems.push(
            `job ${jobId}: took ${d['fromSubscription']} + ${d['fromPurchased']}, the rules say ${fromSubscription} + ${fromPurchased}`,
          );
        }
        org.subscription -= d['fromSubscription'];
        org.purchased -= d['fromPurchased'];
        org.reservations.delete(jobId);
        org.jobsSettled += 1;
        org.chargedTotal += d['charged'];
        break;
      }
      default:
        break;
    }
    if (org.subscription < 0 || org.purchased < 0)
      problems.push(`${org.orgId}: credits below zero after ${e.type} at position ${e.position}`);
  }

  const pendingSettlements = [...jobs.values()]
    .filter((j) => j.outcome !== null && j.settlements === 0)
    .map((j) => j.jobId);
  return { asOf: asOf ?? (last || new Date(0).toISOString()), organizations, jobs, problems, pendingSettlements };
}
