/**
 * axe-core (a devDependency) in a real page: its browser script loaded into the page, run over
 * the whole document, and the violations counted by impact. Used by the accessibility test of
 * every page (test/browser/axe-pages.test.ts) and `npm run bench -- webapp`
 * (scripts/bench-webapp.ts).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

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

/** axe-core's browser script (axe.min.js), or null when the package is not installed. */
export function axeSource(): string | null {
  try {
    return readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  } catch {
    return null;
  }
}

/** Counts `findings` per impact level; a finding without an impact counts as minor. */
export function countByImpact(findings: readonly Pick<AxeFinding, 'impact'>[]): ImpactCounts {
  const counts: ImpactCounts = { critical: 0, serious: 0, moderate: 0, minor: 0 };
  for (const f of findings) counts[f.impact ?? 'minor'] += 1;
  return counts;
}

/** The findings that block: impact serious or critical. */
export const blocking = <T extends Pick<AxeFinding, 'impact'>>(findings: readonly T[]): T[] => findings.filter((f) => f.impact === 'critical' || f.impact === 'serious');

/** "serious color-contrast (3)": a finding in one line, for test output and bench tables. */
export const findingLine = (f: AxeFinding): string => `${f.impact ?? 'minor'} ${f.id} (${f.nodes})`;

/**
 * Runs axe-core (script `source`, from axeSource) over `page`'s whole document and returns the
 * violated rules. The page's context should bypass CSP (`bypassCSP: true`) so the script may run.
 */
export async function axeFindings(page: Page, source: string): Promise<AxeFinding[]> {
  await page.evaluate(source);
  const raw = (await page.evaluate(`axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations.map((v) => ({
    id: v.id, impact: v.impact ?? null, help: v.help, nodes: v.nodes.length,
    targets: v.nodes.slice(0, 3).map((n) => n.target.join(' ')),
  })))`)) as AxeFinding[];
  return raw.sort((a, b) => IMPACTS.indexOf(a.impact ?? 'minor') - IMPACTS.indexOf(b.impact ?? 'minor') || a.id.localeCompare(b.id));
}
