/**
 * A saved record (vehicle, template, project; spec Endpoints "saved data") as a form and back:
 * the fields users need most as inputs (values as typed), every other field kept as JSON, and the
 * request body of POST/PATCH built from both. Values are sent as typed: the service validates and
 * its `details[].path` messages are shown next to the field they name. Pure; tested in
 * test/webapp/record-form.test.ts.
 */

/** How a form field is entered: text, a number (cm, kg, …), a whole number, a checkbox or one of `options`. */
export type FieldKind = 'text' | 'number' | 'integer' | 'boolean' | 'select' | 'color';

/** One input of a record form; `name` is the record's field (and the `details[].path` it answers to). */
export interface FieldSpec {
  name: string;
  label: string;
  kind: FieldKind;
  /** For `select`: the accepted values (an empty choice is added for optional fields). */
  options?: readonly string[];
  /** For `boolean`: the value when the record has none (the spec's default). */
  default?: boolean;
  required?: boolean;
  hint?: string;
}

/** Form values by field name: texts as typed, booleans as ticked. */
export type FormValues = Record<string, string | boolean>;

/** Fields of a record the service sets itself, never sent back (saved-record and project records). */
export const READ_ONLY_KEYS = [
  'id',
  'object',
  'preset',
  'created_at',
  'updated_at',
  'created_by',
  'updated_by',
  'plan',
  'plan_job_id',
  'plan_summary',
  'plan_saved_at',
  'pdf_url',
  'packing',
] as const;

/** A record split for editing: the inputs' values and the rest of its writable fields. */
export interface RecordForm {
  values: FormValues;
  extra: Record<string, unknown>;
}

/** The form of `record` (null: a new one): each spec's value as text ('' when unset), other writable fields in `extra`. */
export function formOf(record: Record<string, unknown> | null, specs: readonly FieldSpec[]): RecordForm {
  const values: FormValues = {};
  const extra: Record<string, unknown> = {};
  const named = new Set(specs.map((s) => s.name));
  for (const s of specs) {
    const v = record?.[s.name];
    if (s.kind === 'boolean') values[s.name] = typeof v === 'boolean' ? v : (s.default ?? false);
    else values[s.name] = v === undefined || v === null ? '' : String(v);
  }
  for (const [k, v] of Object.entries(record ?? {})) {
    if (!named.has(k) && !(READ_ONLY_KEYS as readonly string[]).includes(k) && v !== null) extra[k] = v;
  }
  return { values, extra };
}

/**
 * The value of one input for the request: '' is left out (undefined); numbers are parsed, and a
 * text that is no number is sent as typed so the service names the problem.
 */
export function valueOf(spec: FieldSpec, raw: string | boolean | undefined): unknown {
  if (spec.kind === 'boolean') return raw === true;
  const text = typeof raw === 'string' ? raw.trim() : '';
  if (text === '') return undefined;
  if (spec.kind === 'number' || spec.kind === 'integer') {
    const n = Number(text.replace(',', '.'));
    return Number.isFinite(n) ? n : text;
  }
  return spec.kind === 'text' ? (raw as string) : text;
}

/** The body of POST/PATCH: `extra` with every input's value over it (inputs left empty are not sent). */
export function bodyOf(specs: readonly FieldSpec[], form: RecordForm): Record<string, unknown> {
  const body: Record<string, unknown> = { ...form.extra };
  for (const s of specs) {
    const v = valueOf(s, form.values[s.name]);
    if (v === undefined) delete body[s.name];
    else body[s.name] = v;
  }
  return body;
}

/** The JSON text of a body for the "Edit as JSON" area (2-space indent). */
export function jsonTextOf(body: Record<string, unknown>): string {
  return JSON.stringify(body, null, 2);
}

/** The body typed in the JSON area, without the read-only keys; or the parse problem as a message. */
export function parseJsonBody(text: string): { body: Record<string, unknown> } | { problem: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    return { problem: `not valid JSON: ${err instanceof Error ? err.message : String(err)}` };
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return { problem: 'the JSON must be an object ({ … })' };
  const body = { ...(parsed as Record<string, unknown>) };
  for (const k of READ_ONLY_KEYS) delete body[k];
  return { body };
}
