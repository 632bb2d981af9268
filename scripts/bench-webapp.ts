/**
 * `npm run bench -- webapp`: what the browser front ends cost a person, measured in headless
 * Chromium (playwright-core, Debian's chromium, WebGL by SwiftShader) against a real service
 * process (embedded profile, fresh data dir, free port) started from a checkout's own code and
 * front-end builds (`--root`, default this checkout; its front ends are built first when stale):
 * - bytes transferred (encoded, as served) by a cold load of `/app/playground` (owner signed in)
 *   and of the standalone 3D viewer of a finished job, per kind (HTML, JS, CSS, other);
 * - time to a usable playground: navigation start → the request field, a vehicle's quantity
 *   field and the estimate's Run button are in the page and enabled; also → the first estimate
 *   shown (that one waits for the playground's 400 ms pause after a change);
 * - time to the viewer's first 3D frame: navigation start → the first WebGL frame drawn (the
 *   viewer's own `body[data-load-ms]`, set with `data-ready`);
 * - axe-core's violations per page by impact (every page of test/helpers/web-pages.ts).
 * Each timed load runs in a fresh browser context (empty cache, cookies set), after one load
 * that is not counted; medians of `--runs` loads. Requests say `Accept-Encoding: gzip, deflate,
 * br` (pinned; Chromium sends the same plus zstd).
 *
 *   npm run bench -- webapp [--root DIR] [--runs 5] [--out FILE.json]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { SqliteEventStore } from '../adapters/sqlite/event-store.js';
import { createApiKey, provisionOrganization } from '../application/provision.js';
import { issueInvitation } from '../application/invitations.js';
import { serviceActor } from '../domain/decider/actor.js';
import { awaitKey } from '../test/helpers/idempotency-race.js';
import { startServiceProcess, call } from '../test/helpers/service-process.js';
import { launchChromium } from '../test/helpers/chromium.js';
import {
  axeFindings,
  axeSource,
  countByImpact,
  IMPACTS,
  type AxeFinding,
  type ImpactCounts,
} from '../test/helpers/axe.js';
import { openWebPage, pathOf, webPages } from '../test/helpers/web-pages.js';
import { median, medianSum, recordTransfers, sumTransfers, type Transfer, type TransferSum } from './page-transfer.js';

const THIS_ROOT = fileURLToPath(new URL('..', import.meta.url));
const PASSWORD = 'correct horse battery staple';
/** Pinned so every checkout is asked the same (Debian's chromium adds zstd, which the service does not serve). */
const ACCEPT_ENCODING = 'gzip, deflate, br';
/** A small job with a few kinds of units: a plan for the viewer in a few seconds. */
const JOB_BODY = {
  reference: 'bench-webapp',
  vehicles: [{ vehicle_id: 'rigid-7-5t' }],
  items: [
    { id: 'carton', length: 60, width: 40, height: 40, weight: 12, quantity: 40 },
    { id: 'crate', length: 120, width: 80, height: 100, weight: 150, quantity: 4 },
    { id: 'tube', length: 200, width: 20, height: 20, weight: 8, quantity: 10 },
  ],
  options: { time_limit: 5 },
};

/** Options of the `webapp` benchmark (strings from the command line). */
export interface WebappBenchOptions {
  root?: string;
  runs: string;
  out?: string;
}

/** One page load's figures. */
interface Load {
  ms: number;
  estimateMs?: number;
  sum: TransferSum;
  transfers: Transfer[];
}

/** The JSON written with `--out`. */
export interface WebappBenchReport {
  root: string;
  runs: number;
  playground: { usable_ms: number; estimate_ms: number; bytes: TransferSum; runs_ms: number[]; requests: Transfer[] };
  viewer: { first_frame_ms: number; bytes: TransferSum; runs_ms: number[]; requests: Transfer[] };
  axe: { page: string; path: string; counts: ImpactCounts | null; findings: AxeFinding[] }[] | null;
}

// Marks on <html>, in the page, navigation start → the playground is usable (data-bench-usable, ms), and → its first estimate (data-bench-estimate).
const PLAYGROUND_MARKS = `(() => {
  const marks = {};
  const check = () => {
    const now = performance.now();
    if (marks.usable === undefined) {
      const field = document.querySelector('main textarea.json');
      const quantity = document.querySelector('main input[aria-label^="Quantity of "]');
      const run = document.querySelector('main section[aria-label="Estimate"] button');
      if (field && !field.disabled && quantity && !quantity.disabled && run) marks.usable = now;
    }
    if (marks.estimate === undefined && document.querySelector('main section[aria-label="Estimate"] [data-valid]')) marks.estimate = now;
    if (marks.usable === undefined || marks.estimate === undefined) return;
    observer.disconnect();
    document.documentElement.dataset.benchUsable = String(marks.usable);
    document.documentElement.dataset.benchEstimate = String(marks.estimate);
  };
  const observer = new MutationObserver(check);
  observer.observe(document, { childList: true, subtree: true, attributes: true });
})();`;

/** Runs `node --import tsx scripts/build-front-ends.ts --if-stale` in `root` (the checkout's own front ends). */
async function buildFrontEnds(root: string): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/build-front-ends.ts', '--if-stale'], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const code = await new Promise<number | null>((done) => child.once('exit', done));
  if (code !== 0) throw new Error(`building the front ends of ${root} failed (exit ${code})`);
}

/** An organization (rate limits out of the way), a key, the owner's invitation and a pending member's, straight into the data dir's event store. */
async function provision(dataDir: string): Promise<{ key: string; ownerToken: string; pendingToken: string }> {
  const store = new SqliteEventStore(join(dataDir, 'events.db'));
  try {
    const now = new Date().toISOString();
    const org = await provisionOrganization(store, {
      name: 'Bench Freight',
      ownerName: 'Owner',
      subscriptionCredits: 1000,
      expiresAt: '2099-01-01T00:00:00.000Z',
      now,
      axleAccess: false,
      limits: { rateLimits: { perMinute: 100_000, perHour: 100_000, perDay: 100_000 } },
    });
    const key = await createApiKey(store, { orgId: org.orgId, memberId: org.ownerId, name: 'bench', now });
    const owner = await issueInvitation(store, {
      orgId: org.orgId,
      email: 'owner@bench.test',
      role: 'owner',
      now,
      actor: serviceActor('admin'),
    });
    const pending = await issueInvitation(store, {
      orgId: org.orgId,
      email: 'member@bench.test',
      role: 'member',
      now,
      actor: serviceActor('admin'),
    });
    return { key: key.secret, ownerToken: owner.token, pendingToken: pending.token };
  } finally {
    await store.close();
  }
}

/** Accepts the owner's invitation through the web app's API; the session cookie's name and value. */
async function signIn(base: string, token: string): Promise<{ name: string; value: string }> {
  const res = await fetch(`${base}/app/api/invitations/${token}/accept`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Olga Owner', password: PASSWORD }),
  });
  const set = res.headers.get('set-cookie');
  if (res.status !== 200 || !set)
    throw new Error(`accepting the owner's invitation: ${res.status} ${await res.text()}`);
  const [name, value] = set.split(';')[0]!.split('=') as [string, string];
  return { name, value };
}

/** Runs the bench job to its end; its id and the viewer URL's path. */
async function finishedJob(base: string, key: string): Promise<{ jobId: string; viewerPath: string }> {
  const posted = await call(base, key, 'POST', '/v1/pack?wait=60', JOB_BODY);
  let job = posted.body as { id?: string; status?: string; viewer_url?: string };
  if (!job.id) throw new Error(`POST /v1/pack: ${posted.status} ${JSON.stringify(posted.body)}`);
  while (job.status === 'queued' || job.status === 'running')
    job = (await call(base, key, 'GET', `/v1/jobs/${job.id}?wait=30`)).body as typeof job;
  if (job.status !== 'succeeded' || !job.viewer_url)
    throw new Error(`the bench job ended ${job.status}: ${JSON.stringify(job).slice(0, 400)}`);
  return { jobId: job.id!, viewerPath: pathOf(job.viewer_url) };
}

/** A fresh context (empty cache) with the session cookie when given. */
async function freshContext(
  browser: Browser,
  base: string,
  cookie: { name: string; value: string } | null,
  options: { bypassCSP?: boolean } = {},
): Promise<BrowserContext> {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    extraHTTPHeaders: { 'Accept-Encoding': ACCEPT_ENCODING },
    ...options,
  });
  if (cookie) await context.addCookies([{ ...cookie, url: base }]);
  return context;
}

/** One cold load of `path` until `settled` resolves with the ms to measure; the transfers after the network went quiet. */
async function coldLoad(
  browser: Browser,
  base: string,
  cookie: { name: string; value: string } | null,
  path: string,
  settled: (page: Page) => Promise<{ ms: number; estimateMs?: number }>,
  init?: string,
): Promise<Load> {
  const context = await freshContext(browser, base, cookie);
  try {
    const page = await context.newPage();
    if (init) await page.addInitScript(init);
    const recorder = await recordTransfers(await context.newCDPSession(page));
    await page.goto(base + path);
    const times = await settled(page);
    await page.waitForLoadState('networkidle');
    const transfers = recorder.finished();
    return { ...times, sum: sumTransfers(transfers), transfers };
  } finally {
    await context.close();
  }
}

async function playgroundSettled(page: Page): Promise<{ ms: number; estimateMs: number }> {
  await page.waitForSelector('html[data-bench-estimate]', { timeout: 60_000 });
  return {
    ms: Number(await page.getAttribute('html', 'data-bench-usable')),
    estimateMs: Number(await page.getAttribute('html', 'data-bench-estimate')),
  };
}

async function viewerSettled(page: Page): Promise<{ ms: number }> {
  await page.waitForSelector('body[data-ready="1"], body[data-error]', { timeout: 60_000 });
  const error = await page.getAttribute('body', 'data-error');
  if (error !== null) throw new Error(`the viewer failed to load the plan: ${error}`);
  const ms = Number((await page.getAttribute('body', 'data-load-ms')) ?? Number.NaN);
  if (!Number.isFinite(ms))
    throw new Error('the viewer marked data-ready without data-load-ms (navigation start → first frame, ms)');
  return { ms };
}

/** axe-core over every page: owner signed in for the web app's pages, signed out for the rest; null when axe-core is not installed. */
async function axeEveryPage(
  browser: Browser,
  base: string,
  cookie: { name: string; value: string },
  fixtures: Parameters<typeof webPages>[0],
): Promise<WebappBenchReport['axe']> {
  const source = axeSource();
  if (source === null) return null;
  const signedIn = await freshContext(browser, base, cookie, { bypassCSP: true });
  const signedOut = await freshContext(browser, base, null, { bypassCSP: true });
  try {
    const rows: NonNullable<WebappBenchReport['axe']> = [];
    for (const visit of webPages(fixtures)) {
      const page = await (visit.signedIn ? signedIn : signedOut).newPage();
      try {
        const found = await openWebPage(page, base, visit);
        const findings = found ? await axeFindings(page, source) : [];
        rows.push({ page: visit.name, path: visit.path, counts: found ? countByImpact(findings) : null, findings });
      } finally {
        await page.close();
      }
    }
    return rows;
  } finally {
    await signedIn.close();
    await signedOut.close();
  }
}

const kb = (bytes: number): string => (bytes / 1024).toFixed(1);

/** The report as markdown tables. */
export function markdownOf(r: WebappBenchReport): string {
  const lines = [
    `### Web app figures (${r.root}, median of ${r.runs} cold loads)`,
    '',
    '| page | HTML KiB | JS KiB | CSS KiB | other KiB | total KiB | requests | time ms |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  const row = (name: string, s: TransferSum, ms: string): string =>
    `| ${name} | ${kb(s.html)} | ${kb(s.js)} | ${kb(s.css)} | ${kb(s.other)} | ${kb(s.total)} | ${s.requests} | ${ms} |`;
  lines.push(
    row(
      '/app/playground (→ usable)',
      r.playground.bytes,
      `${r.playground.usable_ms.toFixed(0)} (first estimate ${r.playground.estimate_ms.toFixed(0)})`,
    ),
  );
  lines.push(row('/viewer (→ first 3D frame)', r.viewer.bytes, r.viewer.first_frame_ms.toFixed(0)));
  lines.push(
    '',
    `runs, ms: playground usable ${r.playground.runs_ms.map((m) => m.toFixed(0)).join(', ')}; viewer first frame ${r.viewer.runs_ms.map((m) => m.toFixed(0)).join(', ')}`,
    '',
  );
  if (r.axe === null) {
    lines.push('axe-core is not installed: no accessibility counts.');
  } else {
    lines.push(
      '| page | critical | serious | moderate | minor | rules (impact, elements) |',
      '| --- | ---: | ---: | ---: | ---: | --- |',
    );
    for (const a of r.axe) {
      if (a.counts === null) lines.push(`| ${a.page} | – | – | – | – | no such page |`);
      else
        lines.push(
          `| ${a.page} | ${IMPACTS.map((i) => a.counts![i]).join(' | ')} | ${a.findings.map((f) => `${f.id} (${f.impact ?? 'minor'}, ${f.nodes})`).join(', ')} |`,
        );
    }
  }
  return lines.join('\n');
}

/** `npm run bench -- webapp`: see the module's docstring. */
export async function benchWebapp(options: WebappBenchOptions): Promise<void> {
  const runs = Number(options.runs);
  if (!Number.isInteger(runs) || runs < 1) throw new RangeError('--runs must be a whole number ≥ 1');
  const root = resolve(options.root ?? THIS_ROOT);
  await buildFrontEnds(root);
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-webapp-'));
  const service = await startServiceProcess(dataDir, {}, root);
  let browser: Browser | undefined;
  try {
    const base = service.url;
    const { key, ownerToken, pendingToken } = await provision(dataDir);
    await awaitKey([base], key);
    const cookie = await signIn(base, ownerToken);
    const { jobId, viewerPath } = await finishedJob(base, key);
    browser = await launchChromium({ webgl: true });

    const playground: Load[] = [];
    const viewer: Load[] = [];
    for (let i = 0; i <= runs; i++) {
      const p = await coldLoad(browser, base, cookie, '/app/playground', playgroundSettled, PLAYGROUND_MARKS);
      const v = await coldLoad(browser, base, null, viewerPath, viewerSettled);
      if (i === 0) continue; // the first load of each warms the service, not counted
      playground.push(p);
      viewer.push(v);
    }
    const report: WebappBenchReport = {
      root,
      runs,
      playground: {
        usable_ms: median(playground.map((l) => l.ms)),
        estimate_ms: median(playground.map((l) => l.estimateMs!)),
        bytes: medianSum(playground.map((l) => l.sum)),
        runs_ms: playground.map((l) => l.ms),
        requests: playground[0]!.transfers,
      },
      viewer: {
        first_frame_ms: median(viewer.map((l) => l.ms)),
        bytes: medianSum(viewer.map((l) => l.sum)),
        runs_ms: viewer.map((l) => l.ms),
        requests: viewer[0]!.transfers,
      },
      axe: await axeEveryPage(browser, base, cookie, { invitationToken: pendingToken, jobId, viewerPath }),
    };
    console.log(markdownOf(report));
    if (options.out) writeFileSync(options.out, `${JSON.stringify(report, null, 2)}\n`);
  } finally {
    await browser?.close();
    await service.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
