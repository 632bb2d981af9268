/**
 * `npm run test:failures`: the failed tests of the last tap run, read from tap's per-file records
 * (`.tap/test-results/<file>.tap`, the TAP each test file printed), so a CI log that keeps only
 * its tail still names them: each failing file with its failed subtests (indented by depth) and
 * the first line of each leaf failure's diagnostic. `# TODO` and `# SKIP` lines are not failures.
 * Prints "no failed tests" when none failed, "no test results" when tap has not run.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { TAP_DIR } from './test-phases.js';
import { sourceOfBundle } from './test-bundles.js';

/** One failed test point: its nesting depth (0: the file's top level), name and diagnostic line. */
export interface FailedPoint {
  depth: number;
  name: string;
  /** The first line of its YAML diagnostic that says why (message, error, or the like); may be empty. */
  reason: string;
}

/** A test file with at least one failed test point, in the order tap printed them. */
export interface FailedFile {
  file: string;
  points: FailedPoint[];
}

const NOT_OK = /^(\s*)not ok \d+(?: - (.*?))?(?: # time=[\d.]+m?s)?$/;
const DIRECTIVE = /#\s*(TODO|SKIP)\b/i;
/** Diagnostic keys that say why a point failed, the first present wins (`found` with `wanted`). */
const REASON_KEYS = ['message', 'error', 'found', 'stack'];

/** The failed points of one file's TAP text. */
export function failedPoints(tap: string): FailedPoint[] {
  const lines = tap.split('\n');
  const points: FailedPoint[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = NOT_OK.exec(lines[i] ?? '');
    if (!m || DIRECTIVE.test(lines[i] ?? '')) continue;
    const indent = m[1]?.length ?? 0;
    points.push({
      depth: Math.floor(indent / 4),
      name: m[2] ?? '(unnamed)',
      reason: reasonAfter(lines, i + 1, indent),
    });
  }
  return points;
}

/** The first reason line of the YAML block that starts at `from` (two spaces deeper than `indent`). */
function reasonAfter(lines: string[], from: number, indent: number): string {
  if ((lines[from] ?? '').trim() !== '---') return '';
  const found: Record<string, string> = {};
  for (let j = from + 1; j < lines.length; j++) {
    const line = lines[j] ?? '';
    if (line.trim() === '...') break;
    const m = /^\s*([a-z]+):\s*(.*)$/i.exec(line);
    if (!m || line.length - line.trimStart().length !== indent + 2) continue;
    const key = m[1] ?? '';
    let value = (m[2] ?? '').trim();
    // A folded or literal block: its first line is on the next line.
    if (value === '>' || value === '|' || value === '>-' || value === '|-' || value === '>2' || value === '|2')
      value = (lines[j + 1] ?? '').trim();
    if (!(key in found)) found[key] = value;
  }
  for (const key of REASON_KEYS) {
    if (!found[key]) continue;
    if (key === 'found' && found['wanted'] !== undefined) return `found: ${found[key]}, wanted: ${found['wanted']}`;
    return `${key}: ${found[key]}`;
  }
  return '';
}

/** Every test file under `dir` (tap's test-results folder) with a failed point. */
export function failedFiles(dir = join(TAP_DIR, 'test-results')): FailedFile[] {
  if (!existsSync(dir)) return [];
  const files: FailedFile[] = [];
  for (const entry of readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort()) {
    // A folder may end in `.tap` too: the bundles' results are under `.tap/bundles/`.
    if (!entry.endsWith('.tap') || !statSync(join(dir, entry)).isFile()) continue;
    const points = failedPoints(readFileSync(join(dir, entry), 'utf8'));
    // npm test runs bundles: their failures are named by the source file (scripts/test-bundles.ts).
    if (points.length)
      files.push({ file: sourceOfBundle(entry.slice(0, -'.tap'.length).split(sep).join('/')), points });
  }
  return files;
}

/** The report's lines: at most `perFile` points a file. */
export function failureReport(files: FailedFile[], perFile = 12): string[] {
  if (files.length === 0) return ['no failed tests'];
  const lines = [`failed tests (${files.length} file${files.length === 1 ? '' : 's'}):`];
  for (const f of files) {
    lines.push(`  ${f.file}`);
    for (const p of f.points.slice(0, perFile))
      lines.push(`${'  '.repeat(p.depth + 2)}not ok ${p.name}${p.reason ? ` (${p.reason.slice(0, 200)})` : ''}`);
    if (f.points.length > perFile) lines.push(`      … and ${f.points.length - perFile} more`);
  }
  return lines;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const dir = join(TAP_DIR, 'test-results');
  const report = existsSync(dir)
    ? failureReport(failedFiles(dir))
    : ['no test results: .tap/test-results is missing (run tap)'];
  process.stdout.write(`${report.join('\n')}\n`);
}
