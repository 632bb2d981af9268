/**
 * A table of saved records to choose from with a quantity: the playground's vehicle picker (every
 * saved and preset vehicle) and cargo templates (spec GET /v1/vehicles, /v1/templates). It shows
 * the whole list as the playground read it (use-saved-records.ts: every page, so nothing is hidden
 * behind a first one); the search box narrows the rows by name, id or type, in the browser. A quantity of 0 leaves the record out of
 * the request. Sizes and weights are in the organization's display units.
 */
import { useId, useState } from 'react';
import { ErrorBanner } from '../ui/error-banner.js';
import { useDisplayUnits } from '../units/use-display-units.js';
import {
  lengthToDisplay,
  lengthUnitLabel,
  roundForDisplay,
  weightToDisplay,
  weightUnitLabel,
  type DisplayUnits,
} from '../units/measure.js';
import { matchesSearch, type SavedRecord } from './record-list.js';
import type { SavedList } from './use-saved-records.js';
import type { Chosen } from './request-builder.js';

/** "120 × 80 × 150 cm" (or "r 30 × 120 cm" for a round template), in `units`. */
function sizeOf(r: SavedRecord, units: DisplayUnits): string {
  const len = (cm: number | undefined) => (cm === undefined ? '?' : roundForDisplay(lengthToDisplay(cm, units)));
  const unit = lengthUnitLabel(units);
  if (r.radius !== undefined && r.length === undefined) return `r ${len(r.radius)} × ${len(r.height)} ${unit}`;
  return `${len(r.length)} × ${len(r.width)} × ${len(r.height)} ${unit}`;
}

/** "max 6000 kg" for a vehicle's payload, "150 kg" for a template's unit weight, in `units`. */
function weightOf(r: SavedRecord, units: DisplayUnits): string {
  const w = (kg: number) => `${roundForDisplay(weightToDisplay(kg, units))} ${weightUnitLabel(units)}`;
  if (r.max_weight !== undefined) return `max ${w(r.max_weight)}`;
  return r.weight !== undefined ? w(r.weight) : '';
}

/**
 * Lists every record of `list` (null records while being read; its failure in a banner) with a
 * quantity field each; `chosen` holds the quantities above 0 and `onQuantity` gets one record's
 * new quantity. `noun` names the records in the count line, plural ("vehicles").
 */
export function SavedChoice({
  list,
  title,
  noun,
  chosen,
  onQuantity,
}: {
  list: SavedList;
  title: string;
  noun: string;
  chosen: readonly Chosen[];
  onQuantity: (id: string, quantity: number) => void;
}) {
  const searchId = useId();
  const units = useDisplayUnits();
  const [q, setQ] = useState('');
  const { records, failure } = list;

  const shown = (records ?? []).filter((r) => matchesSearch(r, q));
  const count = (n: number) => `${n} ${n === 1 ? noun.replace(/s$/, '') : noun}`;
  const quantityOf = (id: string) => chosen.find((c) => c.id === id)?.quantity ?? 0;

  return (
    <fieldset className="pg-choice">
      <legend>{title}</legend>
      <div className="search">
        <label htmlFor={searchId}>Search {noun}</label>
        <input
          id={searchId}
          type="search"
          value={q}
          placeholder="Name, id or type"
          onChange={(e) => setQ(e.target.value)}
        />
        <span className="pg-muted" role="status" data-field="shown-count">
          {records === null
            ? 'Loading…'
            : q.trim()
              ? `${shown.length} of ${count(records.length)} match`
              : count(records.length)}
        </span>
      </div>
      <ErrorBanner error={failure} />
      <div className="pg-table-scroll pg-choice-rows">
        <table>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Type</th>
              <th scope="col">Size</th>
              <th scope="col">Weight</th>
              <th scope="col">Quantity</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((r) => {
              const name = r.name ?? r.label ?? r.id;
              return (
                <tr key={r.id} data-record-id={r.id}>
                  <th scope="row">
                    {name} {r.preset ? <span className="pg-muted">(preset)</span> : null}
                  </th>
                  <td>{r.type ?? r.shape ?? ''}</td>
                  <td>{sizeOf(r, units)}</td>
                  <td>{weightOf(r, units)}</td>
                  <td>
                    <input
                      type="number"
                      min={0}
                      max={10000}
                      step={1}
                      aria-label={`Quantity of ${name}`}
                      value={quantityOf(r.id)}
                      onChange={(e) => onQuantity(r.id, Math.max(0, Math.floor(Number(e.target.value) || 0)))}
                    />
                  </td>
                </tr>
              );
            })}
            {records !== null && shown.length === 0 && (
              <tr>
                <td colSpan={5} className="pg-muted">
                  {q.trim() ? 'None matches the search.' : 'None saved.'}
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
    </fieldset>
  );
}
