/**
 * `npm run replay-billing -- [--org org_…] [--as-of <RFC 3339>] [--json]`: the billing audit
 * replay. Reads the whole event log (PACKING_EVENT_STORE: the SQLite file of PACKING_DATA_DIR,
 * default ./data, or EventStoreDB at EVENTSTORE_URL), recomputes every
 * organization's balance and every job's charge with the independent audit fold, builds the
 * read models from the same events with the projections, compares, prints a table per
 * organization, and exits 1 on any difference; exits 2 on bad usage, a missing store or an
 * `--org` the log does not know.
 */
import { Command } from 'commander';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { MemoryReadStore } from '../adapters/memory/read-store.js';
import { openEventStore } from '../service/open-adapters.js';
import { dataDirFromEnvironment, eventStoreConfig } from '../service/config.js';
import { readLog } from '../domain/ports/log-pages.js';
import { auditLog } from '../domain/billing-audit/audit.js';
import { toCredits } from '../domain/ledger/money.js';
import { compareWithReadModels } from '../projections/audit/compare.js';
import { balancesProjection } from '../projections/balances/projection.js';
import { jobsProjection } from '../projections/jobs/projection.js';
import { organizationsProjection } from '../projections/organizations/projection.js';

const program = new Command('replay-billing')
  .description(
    "audit billing: recompute every organization's balance and every job's charge from the event log and compare them with the read models; exit 0 with no difference, 1 with differences, 2 on bad usage",
  )
  .option('--org <id>', 'only this organization (exit 2 when the log has none of that id)')
  .option('--as-of <time>', 'balances as they were at this RFC 3339 time')
  .option('--json', 'print JSON instead of a table')
  .option('--data-dir <dir>', 'data dir (default: PACKING_DATA_DIR or ./data)')
  .parse(process.argv);
const opts = program.opts<{ org?: string; asOf?: string; json?: boolean; dataDir?: string }>();

const started = Date.now();
const dataDir = resolve(opts.dataDir ?? dataDirFromEnvironment());
let which: ReturnType<typeof eventStoreConfig>;
try {
  which = eventStoreConfig();
} catch (err) {
  console.error(`replay-billing: ${(err as Error).message}`);
  process.exit(2);
}
const file = join(dataDir, 'events.db');
if (which.kind === 'sqlite' && !existsSync(file)) {
  console.error(`replay-billing: no event store at ${file}`);
  process.exit(2);
}
let asOf: string = new Date().toISOString();
if (opts.asOf !== undefined) {
  if (Number.isNaN(Date.parse(opts.asOf))) {
    console.error(`replay-billing: --as-of is not a timestamp: ${opts.asOf}`);
    process.exit(2);
  }
  asOf = new Date(opts.asOf).toISOString();
}

// The event store the service uses: PACKING_EVENT_STORE (sqlite under the data dir, or
// eventstoredb at EVENTSTORE_URL).
const store = await openEventStore(which, dataDir);
const events = await readLog(store);
await store.close();

if (
  opts.org !== undefined &&
  !events.some((e) => e.type === 'OrganizationCreated' && (e.data as { orgId?: string }).orgId === opts.org)
) {
  console.error(`replay-billing: no organization ${opts.org} in the log`);
  process.exit(2);
}

const report = auditLog(events, asOf);
const reads = new MemoryReadStore();
const projections = [organizationsProjection, balancesProjection, jobsProjection];
for (const e of events) {
  if (e.recordedAt > asOf) break;
  for (const p of projections) await p.apply(e, reads);
}
const lines = await compareWithReadModels(report, reads, opts.org);
const ms = Date.now() - started;
const differences = lines.reduce((n, l) => n + l.differences.length, 0) + (opts.org ? 0 : report.problems.length);

if (opts.json) {
  console.log(
    JSON.stringify(
      {
        as_of: report.asOf,
        events: events.length,
        jobs: report.jobs.size,
        pending_settlements: report.pendingSettlements,
        organizations: lines.map((l) => ({
          org_id: l.orgId,
          name: l.name,
          subscription_credits: toCredits(l.subscription),
          purchased_credits: toCredits(l.purchased),
          reserved_credits: toCredits(l.reserved),
          available_credits: toCredits(l.available),
          jobs_settled: l.jobsSettled,
          charged_credits: toCredits(l.charged),
          differences: l.differences,
        })),
        problems: report.problems,
        differences,
        ms,
      },
      null,
      2,
    ),
  );
} else {
  const c = (m: number): string => toCredits(m).toFixed(6);
  const rows = [
    [
      'organization',
      'name',
      'subscription',
      'purchased',
      'reserved',
      'available',
      'jobs settled',
      'charged',
      'differences',
    ],
  ];
  for (const l of lines)
    rows.push([
      l.orgId,
      l.name,
      c(l.subscription),
      c(l.purchased),
      c(l.reserved),
      c(l.available),
      String(l.jobsSettled),
      c(l.charged),
      String(l.differences.length),
    ]);
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  for (const r of rows)
    console.log(r.map((v, i) => (i < 2 ? v.padEnd(widths[i]!) : v.padStart(widths[i]!))).join('  '));
  for (const l of lines) for (const d of l.differences) console.log(`DIFFERENCE ${l.orgId}: ${d}`);
  if (!opts.org) for (const p of report.problems) console.log(`PROBLEM: ${p}`);
  console.log(
    `as of ${report.asOf}: ${events.length} events, ${report.jobs.size} jobs, ${report.pendingSettlements.length} settlements pending, ${differences} differences, ${ms} ms`,
  );
}
process.exitCode = differences > 0 ? 1 : 0;
