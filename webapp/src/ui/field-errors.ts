/**
 * Which form field an API problem belongs to (spec Errors: `details[]` with a JSON `path` such as
 * `length`, `blocked_areas[0].x` or `items[3].length`). Pure: no DOM, tested in
 * test/webapp/field-errors.test.ts.
 */
import type { ErrorDetail } from '../api.js';

/** The problems of an answer split by field: `byField[name]` the messages of that field, `other` those of no listed field. */
export interface FieldErrors {
  byField: Record<string, string[]>;
  other: ErrorDetail[];
}

/**
 * True when `path` names `field` or something inside it: `field`, `field.x`, `field[2]`,
 * `field[2].x` (a leading `$.` or `/` of the path is ignored).
 */
export function pathIsIn(path: string, field: string): boolean {
  const p = path.replace(/^\$\.?/, '').replace(/^\//, '');
  return p === field || p.startsWith(`${field}.`) || p.startsWith(`${field}[`);
}

/**
 * Splits `details` over `fields` (names of the form's inputs, dotted for nested ones like
 * `options.time_limit`): a detail goes to the longest field its path is in, else to `other`.
 */
export function fieldErrorsOf(details: readonly ErrorDetail[], fields: readonly string[]): FieldErrors {
  const byField: Record<string, string[]> = {};
  const other: ErrorDetail[] = [];
  const longestFirst = [...fields].sort((a, b) => b.length - a.length);
  for (const d of details) {
    const field = longestFirst.find((f) => pathIsIn(d.path, f));
    if (field === undefined) other.push(d);
    else (byField[field] ??= []).push(d.path === field ? d.message : `${d.path}: ${d.message}`);
  }
  return { byField, other };
}
