/**
 * The owner's choice of display units (account page): metric (cm, kg) or imperial (in, lb) for
 * everyone in the organization, saved with PUT /app/api/organization/display_units; the answer
 * is the session, which the app adopts at once, so every page shows the new units. The API
 * keeps speaking cm and kg.
 */
import { useState, type FormEvent } from 'react';
import { call } from '../api.js';
import { useSession, type Session } from '../session.js';
import { ErrorBanner } from '../ui/error-banner.js';
import { Field } from '../ui/field.js';
import type { DisplayUnits } from './measure.js';
import { useDisplayUnits } from './use-display-units.js';

const CHOICES: readonly { value: DisplayUnits; label: string; hint: string }[] = [
  { value: 'metric', label: 'Metric', hint: 'centimetres and kilograms' },
  { value: 'imperial', label: 'Imperial', hint: 'inches and pounds' },
];

/** The "Display units" section: two choices and a Save button; says what was saved. */
export function DisplayUnitsSetting() {
  const current = useDisplayUnits();
  const { adopt } = useSession();
  const [choice, setChoice] = useState<DisplayUnits>(current);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [notice, setNotice] = useState<string | null>(null);

  async function save(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    setNotice(null);
    try {
      const session = await call<Session>('PUT', '/app/api/organization/display_units', { display_units: choice });
      adopt(session);
      setNotice(
        `Saved: lengths and weights are shown in ${choice === 'imperial' ? 'inches and pounds' : 'centimetres and kilograms'}.`,
      );
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="display-units-heading">
      <h2 id="display-units-heading">Display units</h2>
      <form onSubmit={save}>
        <fieldset>
          <legend>How your organization sees and types lengths and weights (web app, 3D viewer, PDF plans)</legend>
          {CHOICES.map((c) => (
            <Field key={c.value} label={`${c.label} (${c.hint})`} inline>
              {(a) => (
                <input
                  {...a}
                  type="radio"
                  name="display_units"
                  value={c.value}
                  checked={choice === c.value}
                  onChange={() => setChoice(c.value)}
                />
              )}
            </Field>
          ))}
          <p className="hint">
            The API always takes and answers centimetres and kilograms; item files may name their own units in their
            headers.
          </p>
        </fieldset>
        <ErrorBanner error={error} />
        <div aria-live="polite">{notice ? <p className="notice">{notice}</p> : null}</div>
        <button type="submit" disabled={busy || choice === current}>
          Save display units
        </button>
      </form>
    </section>
  );
}
