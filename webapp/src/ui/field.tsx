/**
 * A labelled form input with its error messages: the label,
 * an optional hint and the API's `details[].message` for this field (ui/field-errors.ts), tied to
 * the input by `aria-describedby` and `aria-invalid`.
 */
import { useId, type ReactNode } from 'react';

/** What the input inside a Field spreads onto itself. */
export interface FieldInputProps {
  id: string;
  'aria-describedby'?: string;
  'aria-invalid'?: boolean;
}

/**
 * `label` names the input (every input has one); `errors` are shown below it in red with an
 * icon-free text prefix "Error:"; `inline` puts a checkbox before its label.
 */
export function Field({
  label,
  errors = [],
  hint,
  inline = false,
  hideLabel = false,
  children,
}: {
  label: string;
  /** The label stays for screen readers only (cells of a table whose column heading shows it). */
  hideLabel?: boolean;
  errors?: readonly string[] | undefined;
  hint?: string;
  inline?: boolean;
  children: (input: FieldInputProps) => ReactNode;
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : '', errors.length ? errorId : ''].filter(Boolean).join(' ');
  const input = children({
    id,
    ...(describedBy ? { 'aria-describedby': describedBy } : {}),
    ...(errors.length ? { 'aria-invalid': true } : {}),
  });
  return (
    <div className={`field${inline ? ' field-inline' : ''}${errors.length ? ' field-invalid' : ''}`}>
      {inline ? (
        <>
          {input}
          <label htmlFor={id}>{label}</label>
        </>
      ) : (
        <>
          <label htmlFor={id} className={hideLabel ? 'visually-hidden' : undefined}>
            {label}
          </label>
          {input}
        </>
      )}
      {hint ? (
        <p className="hint" id={hintId}>
          {hint}
        </p>
      ) : null}
      {errors.length ? (
        <p className="field-error" id={errorId}>
          {errors.map((m, i) => (
            <span key={i}>Error: {m}</span>
          ))}
        </p>
      ) : null}
    </div>
  );
}
