/**
 * Turns Ajv errors of the PackRequest schema into the spec's `details[]` entries (spec Errors →
 * `details[].code`), with clear English messages that name the rule and the offending value.
 *
 * Keyword → detail code:
 * - `type` → `invalid_json` (the JSON value has the wrong type: answered with 400), except a
 *   non-integer number where an integer is due → `invalid_value` (right JSON type, not an
 *   allowed value).
 * - `required` → `required`; `additionalProperties` → `unknown_field`.
 * - `enum`, `pattern`, `const` and anything else → `invalid_value`.
 * - `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`, `minLength`, `maxLength`,
 *   `minItems`, `maxItems` → `out_of_range`.
 */
import type { ErrorObject } from 'ajv';
import type { ErrorDetail } from '../../../domain/pack/diagnostics.js';
import { COLOR_PATTERN } from './schema.js';
import { joinField, pointerToPath } from './detail-path.js';

/** Short, safe rendering of a JSON value for messages (never throws, at most ~60 characters). */
export function showValue(v: unknown): string {
  if (typeof v === 'string' && v.length > 60) return `${JSON.stringify(v.slice(0, 50))}... (${v.length} characters)`;
  let s: string;
  try {
    s = typeof v === 'bigint' ? `${v}` : (JSON.stringify(v) ?? String(v));
  } catch {
    s = Object.prototype.toString.call(v);
  }
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
}

/** JSON type name of a value, as messages say it ("a string", "null", "an array"). */
export function jsonTypeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  switch (typeof v) {
    case 'string':
      return 'a string';
    case 'number':
      return Number.isFinite(v) ? 'a number' : `${v} (not a JSON number)`;
    case 'boolean':
      return 'a boolean';
    case 'object':
      return 'an object';
    default:
      return `${typeof v} (not JSON)`;
  }
}

const TYPE_NAMES: Readonly<Record<string, string>> = {
  number: 'a number',
  integer: 'a whole number',
  string: 'a string',
  boolean: 'true or false',
  object: 'an object',
  array: 'an array',
  null: 'null',
};

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diag = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = row[j]!;
      row[j] = Math.min(up + 1, row[j - 1]! + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = up;
    }
  }
  return row[b.length]!;
}

function suggestion(name: string, parentSchema: unknown): string {
  const props = (parentSchema as { properties?: Record<string, unknown> } | undefined)?.properties;
  if (!props || name.length > 64) return '';
  let best: string | undefined;
  let bestD = Infinity;
  for (const k of Object.keys(props)) {
    const d = editDistance(name.toLowerCase(), k);
    if (d < bestD) [best, bestD] = [k, d];
  }
  return best !== undefined && bestD <= Math.max(1, Math.floor(best.length / 4)) ? `; did you mean "${best}"?` : '';
}

/** " cm" / " kg" when the field's description ends with its unit in brackets ("… (cm)"), else ''. */
function unitOf(parentSchema: unknown): string {
  const description = (parentSchema as { description?: unknown } | undefined)?.description;
  const unit = typeof description === 'string' ? /\((cm|kg|kg\/m²)\)$/.exec(description)?.[1] : undefined;
  return unit ? ` ${unit}` : '';
}

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/**
 * One Ajv error → one detail (the error must come from a validator compiled with `verbose: true`).
 * `suggest`: add "did you mean" to unknown fields (an edit-distance search, so callers limit it
 * to the first errors of a body).
 */
export function schemaProblem(e: ErrorObject, suggest = true): ErrorDetail {
  const path = pointerToPath(e.instancePath);
  const p = e.params as Record<string, unknown>;
  // Lazy: for object-level keywords e.data is the whole object, too big to render per error.
  const got = (): string => showValue(e.data);
  switch (e.keyword) {
    case 'type': {
      const want = String(p.type);
      if (want === 'integer' && typeof e.data === 'number' && Number.isFinite(e.data)) {
        return { path, code: 'invalid_value', message: `must be a whole number, got ${got()}` };
      }
      return {
        path,
        code: 'invalid_json',
        message: `must be ${TYPE_NAMES[want] ?? want}, got ${jsonTypeOf(e.data)}${e.data !== null && typeof e.data !== 'object' ? ` (${got()})` : ''}`,
      };
    }
    case 'required': {
      const name = String(p.missingProperty);
      return { path: joinField(path, name), code: 'required', message: `${name} is required` };
    }
    case 'additionalProperties': {
      const name = String(p.additionalProperty);
      return {
        path: joinField(path, name),
        code: 'unknown_field',
        message: `unknown field "${name}"${suggest ? suggestion(name, e.parentSchema) : ''}`,
      };
    }
    case 'enum': {
      const allowed = Array.isArray(p.allowedValues) ? p.allowedValues.map((v) => JSON.stringify(v)).join(', ') : '';
      return { path, code: 'invalid_value', message: `must be one of ${allowed}; got ${got()}` };
    }
    case 'pattern':
      return p.pattern === COLOR_PATTERN
        ? { path, code: 'invalid_value', message: `must be a colour written #rrggbb (six hex digits), got ${got()}` }
        : { path, code: 'invalid_value', message: `must match ${String(p.pattern)}, got ${got()}` };
    case 'minimum':
      return {
        path,
        code: 'out_of_range',
        message: `must be at least ${String(p.limit)}${unitOf(e.parentSchema)}, got ${got()}`,
      };
    case 'exclusiveMinimum':
      return {
        path,
        code: 'out_of_range',
        message: `must be greater than ${String(p.limit)}${unitOf(e.parentSchema)}, got ${got()}`,
      };
    case 'maximum':
      return {
        path,
        code: 'out_of_range',
        message: `must be at most ${String(p.limit)}${unitOf(e.parentSchema)}, got ${got()}`,
      };
    case 'exclusiveMaximum':
      return {
        path,
        code: 'out_of_range',
        message: `must be less than ${String(p.limit)}${unitOf(e.parentSchema)}, got ${got()}`,
      };
    case 'minLength': {
      const n = typeof e.data === 'string' ? e.data.length : 0;
      return {
        path,
        code: 'out_of_range',
        message:
          Number(p.limit) === 1
            ? 'must not be empty'
            : `must be at least ${plural(Number(p.limit), 'character')} long, got ${n}`,
      };
    }
    case 'maxLength': {
      const n = typeof e.data === 'string' ? e.data.length : 0;
      return {
        path,
        code: 'out_of_range',
        message: `must be at most ${plural(Number(p.limit), 'character')} long, got ${n}`,
      };
    }
    case 'minItems': {
      const n = Array.isArray(e.data) ? e.data.length : 0;
      return {
        path,
        code: 'out_of_range',
        message: `must list at least ${plural(Number(p.limit), 'entry', 'entries')}, got ${n}`,
      };
    }
    case 'maxItems': {
      const n = Array.isArray(e.data) ? e.data.length : 0;
      return {
        path,
        code: 'out_of_range',
        message: `must list at most ${plural(Number(p.limit), 'entry', 'entries')}, got ${n}`,
      };
    }
    default:
      return {
        path,
        code: 'invalid_value',
        message: `${e.message ?? 'is not allowed'}${e.data !== undefined ? `, got ${got()}` : ''}`,
      };
  }
}
