/**
 * axe-core (a devDependency) in a real page: its browser script loaded into the page, run over
 * the whole document (of a page or of a frame), and the violations counted by impact. Used by the
 * accessibility test of every page (test/browser/axe-pages.test.ts), the browser tests that check
 * a page in a given state (axeCheck) and `npm run bench -- webapp` (scripts/bench-webapp.ts).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Frame, Page } from 'playwright-core';
import type { Test } from 'tap';

const require = createRequire(import.meta.url);

/** axe-core's impact levels, worst first. */
export const IMPACTS = ['critical', 'serious', 'moderate', 'minor'] as const;
/** One of axe-core's impact levels. */
export type Impact = (typeof IMPACTS)[number];

/** One violated rule on a page: its id, impact, help text and the first few elements (CSS selectors). */
export interface AxeFinding {
  id: string;
  impact: Impact | null;
  help: string;
  nodes: number;
  targets: string[];
}

/** Violated rules per impact level (a rule counts once however many elements break it). */
export type ImpactCounts = Record<Impact, number>;

/**
 * axe-core's browser script (axe.min.js): the devDependency, else the package folder named by the
 * AXE_CORE_DIR environment variable; null when neither has it.
 */
export function axeSource(): string | null {
  for (const path of [
    () => require.resolve('axe-core/axe.min.js'),
    () => join(process.env['AXE_CORE_DIR'] ?? '', 'axe.min.js'),
  ]) {
    try {
      return readFileSync(path(), 'utf8');
    } catch {
      // the next place
    }
  }
  return null;
}

/** Counts `findings` per impact level; a finding without an impact counts as minor. */
export function countByImpact(findings: readonly Pick<AxeFinding, 'impact'>[]): ImpactCounts {
  const counts: ImpactCounts = { critical: 0, serious: 0, moderate: 0, minor: 0 };
  for (const f of findings) counts[f.impact ?? 'minor'] += 1;
  return counts;
}

/** The findings that block: impact serious or critical. */
export const blocking = <T extends Pick<AxeFinding, 'impact'>>(findings: readonly T[]): T[] =>
  findings.filter((f) => f.impact === 'critical' || f.impact === 'serious');

/** "serious color-contrast (3)": a finding in one line, for test output and bench tables. */
export const findingLine = (f: AxeFinding): string => `${f.impact ?? 'minor'} ${f.id} (${f.nodes})`;

/** How axe-core runs: `iframes: false` leaves the document's frames out (they are checked on their own). */
export interface AxeOptions {
  iframes?: boolean;
}

/** One axe-core run: the violated rules (worst first) and how many rules passed. */
export interface AxeRun {
  findings: AxeFinding[];
  passed: number;
}

/**
 * Runs axe-core (script `source`, from axeSource) over the whole document of `page` (a page or a
 * frame) and returns the violated rules, worst first, and the count of rules passed. The script is
 * evaluated through the DevTools protocol; test/browser/axe-pages.test.ts also lets its contexts
 * bypass CSP (`bypassCSP: true`) for pages whose policy allows only their own scripts.
 */
export async function axeRun(page: Page | Frame, source: string, options: AxeOptions = {}): Promise<AxeRun> {
  await page.evaluate(source);
  const run = { resultTypes: ['violations'], ...(options.iframes === false ? { iframes: false } : {}) };
  const raw =
    await page.evaluate<AxeRun>(`axe.run(document, ${JSON.stringify(run)}).then((r) => ({ passed: r.passes.length, findings: r.violations.map((v) => ({
    id: v.id, impact: v.impact ?? null, help: v.help, nodes: v.nodes.length,
    targets: v.nodes.slice(0, 3).map((n) => n.target.join(' ')),
  })) }))`);
  return {
    passed: raw.passed,
    findings: raw.findings.sort(
      (a, b) => IMPACTS.indexOf(a.impact ?? 'minor') - IMPACTS.indexOf(b.impact ?? 'minor') || a.id.localeCompare(b.id),
    ),
  };
}

/**
 * Runs axe-core (script `source`, from axeSource) over `page`'s whole document and returns the
 * violated rules, worst first (see axeRun).
 */
export async function axeFindings(page: Page | Frame, source: string, options: AxeOptions = {}): Promise<AxeFinding[]> {
  return (await axeRun(page, source, options)).findings;
}

/**
 * A browser test's accessibility check of `page` as it is now (`where` names that state in the
 * output): the blocking findings (serious, critical; the test asserts there are none) and the
 * number of rules passed; the lesser findings are printed as a comment. Fails `t` and returns null
 * when axe-core is not installed.
 */
export async function axeCheck(
  t: Test,
  page: Page | Frame,
  where: string,
  options: AxeOptions = {},
): Promise<{ blocking: AxeFinding[]; passed: number } | null> {
  const source = axeSource();
  if (source === null) {
    t.fail('axe-core is not installed (npm ci installs the devDependency)');
    return null;
  }
  const { findings, passed } = await axeRun(page, source, options);
  const worst = blocking(findings);
  const lesser = findings.filter((f) => !worst.includes(f));
  if (lesser.length) t.comment(`axe-core on ${where}, lesser findings: ${lesser.map(findingLine).join(', ')}`);
  return { blocking: worst, passed };
}
