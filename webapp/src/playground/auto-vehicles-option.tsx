/**
 * The playground's "add vehicles automatically" option (spec Options.packing_mode: `auto`, the
 * default, or `fleet_only`; Limits "Vehicles per job (incl. auto-added)"; Credits and pricing:
 * per loaded vehicle, worst case reserved) with the one sentence that says what it does, its
 * limit and how it is charged.
 */
import { useId } from 'react';
import { credits } from './format.js';
import type { PackingMode } from './request-edits.js';
import type { VehicleTerms } from './use-vehicle-terms.js';

/** The explanation of the option: what it does, its limit, how it is charged. */
export function autoVehiclesExplanation(terms: VehicleTerms | null): string {
  const limit = terms ? `${terms.maxVehicles} vehicles per job` : "your plan's vehicles per job";
  const price = terms ? ` (${credits(terms.perVehicleCredits)} each)` : '';
  return (
    `When the listed vehicles are full, the service adds copies of the most suitable one, up to ${limit} in all (listed ones included); ` +
    `only vehicles that end up loaded are charged${price}, but running reserves the price of that many until the job ends; ` +
    'off, only the listed vehicles are used and what does not fit is reported as unplaced.'
  );
}

/** A checkbox for `options.packing_mode` (checked = `auto`) with its explanation. */
export function AutoVehiclesOption({
  mode,
  terms,
  onChange,
}: {
  mode: PackingMode;
  terms: VehicleTerms | null;
  onChange: (mode: PackingMode) => void;
}) {
  const id = useId();
  return (
    <div className="pg-auto">
      <input
        id={id}
        type="checkbox"
        checked={mode === 'auto'}
        aria-describedby={`${id}-why`}
        onChange={(e) => onChange(e.target.checked ? 'auto' : 'fleet_only')}
      />{' '}
      <label htmlFor={id}>Add vehicles automatically when the listed ones are full</label>
      <p id={`${id}-why`} className="pg-muted">
        {autoVehiclesExplanation(terms)}
      </p>
    </div>
  );
}
