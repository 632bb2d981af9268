/**
 * A saved record (vehicle, template, project; spec Endpoints "saved data") as a form and back:
 * the fields users need most as inputs (values as typed), every other field kept as JSON, and the
 * request body of POST/PATCH built from both. Values are sent as typed: the service validates and
 * its `details[].path` messages are shown next to the field they name. Lengths and weights (fields
 * with a `measure`) are shown and typed in the organization's display units and sent in cm and kg;
 * metric values are shown to 0.1 cm and 0.1 kg; a converted or rounded value left as shown is sent
 * exactly as the record had it. Pure; tested in
 * test/webapp/record-form.test.ts and test/webapp/record-form-units.test.ts.
 */
import {
  measureFromDisplay,
  measureToDisplay,
  measureUnitLabel,
  roundForDisplay,
  type DisplayUnits,
  type Measure,
} from '../units/measure.js';
import { valueText } from '../../../display/text.js';

/**
 * How a form field is entered: text, a number (cm, kg, …), a whole number, a checkbox, one of
 * `options`, a colour, or a `record` of a saved list (typed or picked by name, kept as its id).
 */
export type FieldKind = 'text' | 'number' | 'integer' | 'boolean' | 'select' | 'color' | 'record';

/** The saved list a `record` field names an id of: `/v1/vehicles` (own vehicles and presets), its records' noun. */
export interface RecordList {
  path: string;
  /** One record ("vehicle"): the field's notes say it. */
  noun: string;
}

/** One input of a record form; `name` is the record's field (and the `details[].path` it answers to). */
export interface FieldSpec {
  name: string;
  /** The label without unit; a field with a `measure` gets its unit appended (labelOf). */
  label: string;
  kind: FieldKind;
  /** What a `number` measures: shown and typed in the display units, sent in cm, kg or kg/m². */
  measure?: Measure;
  /** For `select`: the accepted values (an empty choice is added for optional fields). */
  options?: readonly string[];
  /** For `select`: values shown but not choosable, with the reason ("not in your plan"). */
  unavailable?: Readonly<Record<string, string>>;
  /** For `record`: the list whose ids the field holds (shown by name). */
  records?: RecordList;
  /** For `boolean`: the value when the record has none (the spec's default). */
  default?: boolean;
  required?: boolean;
  hint?: string;
}

/** Form values by field name: texts as typed, booleans as ticked. */
export type FormValues = Record<string, string | boolean>;

/**
 * The record's own values behind converted inputs, by field name: the text first shown and the
 * value in cm or kg it stands for. While an input still shows that text, the record's value is
 * sent unchanged (no round trip through the rounded display).
 */
export type ShownValues = Record<string, { text: string; value: number }>;

/** Decimals a converted value is shown with (in, lb, lb/ft²). */
export const DISPLAY_DECIMALS = 2;

/** Decimals a metric value is shown with: 0.1 cm, 0.1 kg, 0.1 kg/m² (a stored 8.482177319 kg reads 8.5). */
export const METRIC_DECIMALS = 1;

/** The label of `spec` in `units`: "Length (in)" for a length; other fields as they are. */
export const labelOf = (spec: FieldSpec, units: DisplayUnits): string =>
  spec.measure ? `${spec.label} (${measureUnitLabel(spec.measure, units)})` : spec.label;

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
  'viewer_url',
  'packing',
] as const;

/**
 * A list field edited as a table (a project's `vehicles` and `items`): one row per entry, one
 * input per column; the entry's other fields (its `id` among them, so PATCH keeps it) ride along.
 */
export interface RowsSpec {
  name: string;
  label: string;
  /** One entry ("vehicle slot"): the add and remove buttons say it. */
  noun: string;
  /** Shown under the table's legend. */
  hint?: string;
  columns: readonly FieldSpec[];
}

/** One entry of a list field: its inputs' values and its other fields. */
export interface RowForm {
  values: FormValues;
  extra: Record<string, unknown>;
  /** The entry's values behind converted inputs (converted or rounded). */
  shown?: ShownValues;
}

/** A record split for editing: the inputs' values, the list fields' rows and the rest of its writable fields. */
export interface RecordForm {
  values: FormValues;
  rows: Record<string, RowForm[]>;
  extra: Record<string, unknown>;
  /** The record's values behind converted inputs (converted or rounded). */
  shown?: ShownValues;
  /** The units the inputs are in (metric when absent). */
  units?: DisplayUnits;
}

/**
 * The inputs of `entry` per `specs`, text ('' when unset) or boolean (the default when unset);
 * numbers with a `measure` in `units`, rounded (to DISPLAY_DECIMALS when converted, to
 * METRIC_DECIMALS in cm and kg), with the record's value kept in `shown` when the text differs.
 */
function valuesOf(
  entry: Record<string, unknown> | null,
  specs: readonly FieldSpec[],
  units: DisplayUnits,
): { values: FormValues; shown: ShownValues } {
  const values: FormValues = {};
  const shown: ShownValues = {};
  for (const s of specs) {
    const v = entry?.[s.name];
    if (s.kind === 'boolean') values[s.name] = typeof v === 'boolean' ? v : (s.default ?? false);
    else if (s.measure && typeof v === 'number' && Number.isFinite(v)) {
      const text =
        units === 'metric'
          ? roundForDisplay(v, METRIC_DECIMALS)
          : roundForDisplay(measureToDisplay(v, s.measure, units), DISPLAY_DECIMALS);
      values[s.name] = text;
      if (units !== 'metric' || text !== String(v)) shown[s.name] = { text, value: v };
    } else values[s.name] = valueText(v);
  }
  return { values, shown };
}

/** `shown` only when it has an entry (forms in metric carry none). */
const withShown = (shown: ShownValues): { shown?: ShownValues } => (Object.keys(shown).length > 0 ? { shown } : {});

/**
 * The row of one list entry: its columns' values (in `units`, metric by default); every other
 * field (its `id` too) in `extra`.
 */
export function rowOf(
  entry: Record<string, unknown> | null,
  columns: readonly FieldSpec[],
  units: DisplayUnits = 'metric',
): RowForm {
  const named = new Set(columns.map((c) => c.name));
  const extra: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(entry ?? {})) if (!named.has(k) && v !== null) extra[k] = v;
  const { values, shown } = valuesOf(entry, columns, units);
  return { values, extra, ...withShown(shown) };
}

/**
 * The form of `record` (null: a new one): each spec's value as text ('' when unset; lengths and
 * weights in `units`, metric by default), each list field's entries as rows, other writable
 * fields in `extra`.
 */
export function formOf(
  record: Record<string, unknown> | null,
  specs: readonly FieldSpec[],
  rowSpecs: readonly RowsSpec[] = [],
  units: DisplayUnits = 'metric',
): RecordForm {
  const extra: Record<string, unknown> = {};
  const rows: Record<string, RowForm[]> = {};
  const named = new Set([...specs.map((s) => s.name), ...rowSpecs.map((r) => r.name)]);
  for (const r of rowSpecs) {
    const list = record?.[r.name];
    if (Array.isArray(list) && list.every((e) => e !== null && typeof e === 'object' && !Array.isArray(e))) {
      rows[r.name] = (list as Record<string, unknown>[]).map((e) => rowOf(e, r.columns, units));
    } else if (list !== undefined && list !== null) {
      // Not a list of objects: kept as it is (no rows), for the service to name the problem.
      extra[r.name] = list;
    } else rows[r.name] = [];
  }
  for (const [k, v] of Object.entries(record ?? {})) {
    if (!named.has(k) && !(READ_ONLY_KEYS as readonly string[]).includes(k) && v !== null) extra[k] = v;
  }
  const { values, shown } = valuesOf(record, specs, units);
  return { values, rows, extra, ...withShown(shown), ...(units === 'metric' ? {} : { units }) };
}

/**
 * The value of one input for the request: '' is left out (undefined); numbers are parsed (a
 * length or weight typed in `units` is converted to cm or kg), and a text that is no number is
 * sent as typed so the service names the problem.
 */
export function valueOf(spec: FieldSpec, raw: string | boolean | undefined, units: DisplayUnits = 'metric'): unknown {
  if (spec.kind === 'boolean') return raw === true;
  const text = typeof raw === 'string' ? raw.trim() : '';
  if (text === '') return undefined;
  if (spec.kind === 'number' || spec.kind === 'integer') {
    const n = Number(text.replace(',', '.'));
    if (!Number.isFinite(n)) return text;
    return spec.measure ? measureFromDisplay(n, spec.measure, units) : n;
  }
  // A record field holds an id (the input turns a typed name into it); the rest as typed.
  return spec.kind === 'text' ? raw : text;
}

/**
 * `extra` with the value of every input in `specs` over it (inputs left empty are not sent); an
 * input still showing the converted text of the record's value sends that value unchanged.
 */
function withValues(
  specs: readonly FieldSpec[],
  values: FormValues,
  extra: Record<string, unknown>,
  units: DisplayUnits,
  shown: ShownValues = {},
): Record<string, unknown> {
  const body: Record<string, unknown> = { ...extra };
  for (const s of specs) {
    const kept = shown[s.name];
    const v = kept && values[s.name] === kept.text ? kept.value : valueOf(s, values[s.name], units);
    if (v === undefined) delete body[s.name];
    else body[s.name] = v;
  }
  return body;
}

/**
 * The body of POST/PATCH, in cm and kg whatever the form's units: `extra` with every input's
 * value over it (inputs left empty are not sent) and each list field as the list of its rows
 * (entries keep their `id`).
 */
export function bodyOf(
  specs: readonly FieldSpec[],
  form: RecordForm,
  rowSpecs: readonly RowsSpec[] = [],
): Record<string, unknown> {
  const units = form.units ?? 'metric';
  const body = withValues(specs, form.values, form.extra, units, form.shown);
  for (const r of rowSpecs) {
    const rows = form.rows[r.name];
    if (rows) body[r.name] = rows.map((row) => withValues(r.columns, row.values, row.extra, units, row.shown));
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
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    return { problem: 'the JSON must be an object ({ … })' };
  const body = { ...(parsed as Record<string, unknown>) };
  for (const k of READ_ONLY_KEYS) delete body[k];
  return { body };
}
