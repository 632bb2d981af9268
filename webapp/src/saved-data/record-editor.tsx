/**
 * The create/edit form of a saved record: the most used fields as
 * labelled inputs and an "Edit as JSON" text area with the full body, so every field the API
 * accepts is reachable. The service's validation messages (`details[]`) appear next to the input
 * whose field they name; the rest in the banner (in JSON mode all of them, with their paths).
 * Lengths and weights are shown and typed in the organization's display units (labels cm/in,
 * kg/lb), metric ones to 0.1 cm and 0.1 kg; the JSON text is always in cm and kg, like the API.
 * A record field (a project slot's vehicle) is typed or picked by name from the saved list
 * (record-choice-input.tsx) and keeps the record's id; the note under it says which record it is.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { ApiFailure } from '../api.js';
import { ErrorBanner } from '../ui/error-banner.js';
import { Field, type FieldInputProps } from '../ui/field.js';
import { fieldErrorsOf } from '../ui/field-errors.js';
import { useDisplayUnits } from '../units/use-display-units.js';
import { choiceNote } from './record-choices.js';
import { RecordChoiceInput, RecordChoiceList } from './record-choice-input.js';
import { useRecordChoices } from './use-record-choices.js';
import {
  bodyOf,
  formOf,
  jsonTextOf,
  labelOf,
  parseJsonBody,
  rowOf,
  type FieldSpec,
  type FormValues,
  type RecordForm,
  type RowsSpec,
} from './record-form.js';

/**
 * Edits `record` (null: a new one) of kind `noun` ("vehicle"); `onSave(body)` sends it (POST or
 * PATCH) and throws ApiFailure on refusal; `onDone` closes the editor after a save or Cancel.
 */
export function RecordEditor({
  noun,
  heading,
  specs,
  rowSpecs = [],
  record,
  onSave,
  onDone,
}: {
  noun: string;
  heading: string;
  specs: readonly FieldSpec[];
  /** List fields edited as tables (a project's vehicle slots and items). */
  rowSpecs?: readonly RowsSpec[];
  record: Record<string, unknown> | null;
  onSave: (body: Record<string, unknown>) => Promise<void>;
  onDone: () => void;
}) {
  const units = useDisplayUnits();
  const [form, setForm] = useState<RecordForm>(() => formOf(record, specs, rowSpecs, units));
  const [json, setJson] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);
  // The saved lists record fields name (a slot's vehicle), read once per editor, one datalist each.
  const listPaths = [...specs, ...rowSpecs.flatMap((r) => r.columns)].flatMap((s) =>
    s.records ? [s.records.path] : [],
  );
  const lists = useRecordChoices(listPaths);
  const listIdBase = useId();
  const listIdOf = (path: string) => `${listIdBase}-list-${Object.keys(lists).indexOf(path)}`;
  /** The note under a record field: what its record is, or why none is found. */
  const noteOf = (s: FieldSpec, values: FormValues): string | undefined => {
    const list = s.records ? lists[s.records.path] : undefined;
    return s.records && list ? choiceNote(list, String(values[s.name] ?? ''), s.records.noun) : undefined;
  };

  const details = error instanceof ApiFailure ? error.details : [];
  const fieldNames = [
    ...specs.map((s) => s.name),
    ...rowSpecs.flatMap((r) => [
      r.name,
      ...(form.rows[r.name] ?? []).flatMap((_, i) => [
        `${r.name}[${i}]`,
        ...r.columns.map((c) => `${r.name}[${i}].${c.name}`),
      ]),
    ]),
  ];
  const errors =
    json === null ? fieldErrorsOf(details, fieldNames) : { byField: {} as Record<string, string[]>, other: details };

  function toJson() {
    setJson(jsonTextOf(bodyOf(specs, form, rowSpecs)));
    setProblem(null);
  }
  function toForm(): RecordForm | null {
    if (json === null) return form;
    const parsed = parseJsonBody(json);
    if ('problem' in parsed) {
      setProblem(parsed.problem);
      return null;
    }
    const next = formOf(parsed.body, specs, rowSpecs, units);
    setForm(next);
    setJson(null);
    setProblem(null);
    return next;
  }

  const setRows = (name: string, rows: RecordForm['rows'][string]) =>
    setForm({ ...form, rows: { ...form.rows, [name]: rows } });
  const setTop = (values: FormValues) => setForm({ ...form, values });
  const input = (
    s: FieldSpec,
    a: FieldInputProps,
    values: FormValues = form.values,
    setValues: (v: FormValues) => void = setTop,
  ) => {
    const v = values[s.name];
    const set = (value: string | boolean) => setValues({ ...values, [s.name]: value });
    if (s.kind === 'boolean')
      return <input {...a} type="checkbox" checked={v === true} onChange={(e) => set(e.target.checked)} />;
    if (s.kind === 'record' && s.records) {
      return (
        <RecordChoiceInput
          input={a}
          listId={listIdOf(s.records.path)}
          value={String(v ?? '')}
          choices={lists[s.records.path]?.choices ?? null}
          onChange={set}
        />
      );
    }
    if (s.kind === 'select') {
      return (
        <select {...a} value={String(v ?? '')} onChange={(e) => set(e.target.value)}>
          {s.required ? null : <option value="">(default)</option>}
          {(s.options ?? []).map((o) => {
            const unavailable = s.unavailable?.[o];
            return (
              <option key={o} value={o} disabled={unavailable !== undefined} title={unavailable}>
                {unavailable ? `${o} (${unavailable})` : o}
              </option>
            );
          })}
        </select>
      );
    }
    const numeric = s.kind === 'number' || s.kind === 'integer';
    return (
      <input
        {...a}
        type="text"
        inputMode={numeric ? (s.kind === 'integer' ? 'numeric' : 'decimal') : undefined}
        placeholder={s.kind === 'color' ? '#rrggbb' : undefined}
        value={String(v ?? '')}
        onChange={(e) => set(e.target.value)}
      />
    );
  };

  return (
    <section className="record-editor" aria-labelledby="record-editor-heading">
      <h2 id="record-editor-heading" ref={headingRef} tabIndex={-1}>
        {heading}
      </h2>
      <form
        noValidate
        onSubmit={async (e) => {
          e.preventDefault();
          let body: Record<string, unknown>;
          if (json !== null) {
            const parsed = parseJsonBody(json);
            if ('problem' in parsed) {
              setProblem(parsed.problem);
              return;
            }
            body = parsed.body;
          } else body = bodyOf(specs, form, rowSpecs);
          setBusy(true);
          setError(null);
          try {
            await onSave(body);
            onDone();
          } catch (err) {
            setError(err);
          } finally {
            setBusy(false);
          }
        }}
      >
        {json === null ? (
          <div className="form-grid">
            {specs.map((s) => (
              <Field
                key={s.name}
                label={labelOf(s, units)}
                hint={[s.hint, noteOf(s, form.values)].filter(Boolean).join(' ') || undefined}
                inline={s.kind === 'boolean'}
                errors={errors.byField[s.name]}
              >
                {(a) => input(s, a)}
              </Field>
            ))}
          </div>
        ) : null}
        {json === null
          ? rowSpecs.map((r) => {
              const rows = form.rows[r.name] ?? [];
              return (
                // min-width 0: a fieldset grows to its table's width by default; this way a
                // wide table (a project's items at 1024 px) scrolls in its box, not the page.
                <fieldset key={r.name} className="rows" style={{ minWidth: 0 }}>
                  <legend>{r.label}</legend>
                  {r.hint ? <p className="hint">{r.hint}</p> : null}
                  {errors.byField[r.name] ? (
                    <p className="field-error">Error: {errors.byField[r.name]!.join('; ')}</p>
                  ) : null}
                  {rows.length ? (
                    <div className="table-wrap">
                      <table className="rows-table">
                        <thead>
                          <tr>
                            <th scope="col">#</th>
                            {r.columns.map((c) => (
                              <th key={c.name} scope="col">
                                {labelOf(c, units)}
                              </th>
                            ))}
                            <th scope="col">
                              <span className="visually-hidden">Actions</span>
                            </th>
                          </tr>
                        </thead>
                        <tbody>
                          {rows.map((row, i) => (
                            <tr key={i}>
                              <td>
                                {i + 1}
                                {errors.byField[`${r.name}[${i}]`] ? (
                                  <p className="field-error">{errors.byField[`${r.name}[${i}]`]!.join('; ')}</p>
                                ) : null}
                              </td>
                              {r.columns.map((c) => (
                                <td key={c.name}>
                                  <Field
                                    label={`${labelOf(c, units)} of ${r.noun} ${i + 1}`}
                                    hideLabel
                                    hint={noteOf(c, row.values)}
                                    errors={errors.byField[`${r.name}[${i}].${c.name}`]}
                                  >
                                    {(a) =>
                                      input(c, a, row.values, (values) =>
                                        setRows(
                                          r.name,
                                          rows.map((x, j) => (j === i ? { ...x, values } : x)),
                                        ),
                                      )
                                    }
                                  </Field>
                                </td>
                              ))}
                              <td>
                                <button
                                  type="button"
                                  className="link"
                                  onClick={() =>
                                    setRows(
                                      r.name,
                                      rows.filter((_, j) => j !== i),
                                    )
                                  }
                                >
                                  Remove {r.noun} {i + 1}
                                </button>
                              </td>
                            </tr>
                          ))}
                        </tbody>
                      </table>
                    </div>
                  ) : (
                    <p className="hint">None yet.</p>
                  )}
                  <button
                    type="button"
                    className="secondary"
                    onClick={() => setRows(r.name, [...rows, rowOf(null, r.columns, units)])}
                  >
                    Add {r.noun}
                  </button>
                </fieldset>
              );
            })
          : null}
        {json === null ? null : (
          <Field
            label={`The ${noun} as JSON`}
            hint={`Every field the API accepts, in cm and kg as the API takes them${units === 'imperial' ? ' (the form shows in and lb)' : ''}; the service's read-only fields (id, created_at, …) are ignored.`}
            errors={problem ? [problem] : undefined}
          >
            {(a) => (
              <textarea
                {...a}
                className="json"
                spellCheck={false}
                value={json}
                onChange={(e) => setJson(e.target.value)}
              />
            )}
          </Field>
        )}
        {json === null && Object.keys(form.extra).length ? (
          <p className="hint">Also set (edit as JSON to change): {Object.keys(form.extra).join(', ')}.</p>
        ) : null}
        <ErrorBanner error={error} details={errors.other} />
        <div className="form-buttons">
          <button type="submit" disabled={busy}>
            Save {noun}
          </button>
          <button type="button" className="secondary" onClick={() => (json === null ? toJson() : toForm())}>
            {json === null ? 'Edit as JSON' : 'Edit as form'}
          </button>
          <button type="button" className="secondary" onClick={onDone}>
            Cancel
          </button>
        </div>
      </form>
      {Object.entries(lists).map(([path, list]) => (
        <RecordChoiceList key={path} id={listIdOf(path)} choices={list.choices} />
      ))}
    </section>
  );
}
