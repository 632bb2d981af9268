/**
 * The totals under the playground's item table (playground/cargo-totals.ts): units, volume and
 * weight of the cargo in the organization's display units (m³ and kg, or ft³ and lb), and its
 * share of the request's vehicles (volume ÷ their inner volume, weight ÷ their payload). The
 * saved vehicles and templates the request names are looked up in the records the playground's
 * pickers read (saved-choice.tsx: GET /v1/vehicles and /v1/templates, every page), not read a
 * second time; a vehicle whose size or payload is not known is left out of the share, and said so.
 */
import { roundForDisplay, weightToDisplay, weightUnitLabel, type DisplayUnits } from '../units/measure.js';
import {
  cargoShare,
  cargoTotals,
  vehicleRoom,
  volumeToDisplay,
  volumeUnitLabel,
  type RequestEntry,
  type SavedLookup,
} from './cargo-totals.js';
import { percent } from './format.js';
import type { SavedRecord } from './record-list.js';

const NONE: SavedLookup = new Map();

const names = (entries: readonly RequestEntry[], field: string) => entries.some((e) => typeof e[field] === 'string');

/** Saved records by id, for the lookups of cargo-totals.ts. */
export function savedLookupOf(records: readonly SavedRecord[]): SavedLookup {
  return new Map(records.map((r) => [r.id, r]));
}

/** The saved vehicles and templates by id, as the pickers read them; null while not read yet. */
export interface SavedRecords {
  vehicles: SavedLookup | null;
  templates: SavedLookup | null;
}

/** The totals line and the share line for `items` in `vehicles`. */
export function CargoSummary({
  items,
  vehicles,
  units,
  saved: { vehicles: saved, templates },
}: {
  items: readonly RequestEntry[];
  vehicles: readonly RequestEntry[];
  units: DisplayUnits;
  saved: SavedRecords;
}) {
  const cargo = cargoTotals(items, templates ?? NONE);
  const room = vehicleRoom(vehicles, saved ?? NONE);
  const share = cargoShare(cargo, room);
  const volume = (cm3: number) => `${roundForDisplay(volumeToDisplay(cm3, units))} ${volumeUnitLabel(units)}`;
  const weight = (kg: number) => `${roundForDisplay(weightToDisplay(kg, units), 1)} ${weightUnitLabel(units)}`;
  const loading =
    (names(items, 'template_id') && templates === null) || (names(vehicles, 'vehicle_id') && saved === null);
  return (
    <div className="pg-totals" aria-label="Cargo totals" role="group">
      <p>
        <strong>Total:</strong>{' '}
        <span data-field="total-units">{cargo.units === 1 ? '1 unit' : `${cargo.units} units`}</span>,{' '}
        <span data-field="total-volume">{volume(cargo.volume)}</span>,{' '}
        <span data-field="total-weight">{weight(cargo.weight)}</span>
        {cargo.uncounted > 0 && (
          <span className="pg-muted">
            {' '}
            ({cargo.uncounted === 1 ? '1 item' : `${cargo.uncounted} items`} without a size or weight not counted)
          </span>
        )}
      </p>
      <p data-field="vehicle-share">
        {loading ? (
          'Reading the sizes of the saved vehicles and templates…'
        ) : share === null && room.uncounted > 0 ? (
          <span className="pg-muted">
            The size or payload of the chosen {room.uncounted === 1 ? 'vehicle is' : 'vehicles is'} not known: no share
            to show.
          </span>
        ) : share === null ? (
          <span className="pg-muted">Choose a vehicle to see the cargo's share of its space and payload.</span>
        ) : (
          <>
            <strong>Share of the {room.vehicles === 1 ? 'vehicle' : `${room.vehicles} vehicles`}:</strong>{' '}
            {percent(share.volume)} of the volume ({volume(room.volume)}), {percent(share.weight)} of the payload (
            {weight(room.payload)})
            {room.uncounted > 0 && (
              <span className="pg-muted">
                ; {room.uncounted === 1 ? '1 vehicle' : `${room.uncounted} vehicles`} of unknown size not counted
              </span>
            )}
            .
          </>
        )}
      </p>
    </div>
  );
}
