/**
 * Vehicles (/v1/vehicles): the organization's vehicles and the
 * service's presets (read-only, "Copy as new"), with search, paging, create, edit and delete.
 * Sizes and payloads are shown in the organization's display units (cm/kg or in/lb); the form
 * offers the vehicle types the organization's plan allows (the others shown disabled).
 */
import { useMemo } from 'react';
import { vehicleFields } from '../saved-data/kinds.js';
import { SavedDataPage, type SavedDataKind } from '../saved-data/saved-data-page.js';
import { useSession } from '../session.js';
import { formatMeasure, measureUnitLabel, type DisplayUnits } from '../units/measure.js';
import { useDisplayUnits } from '../units/use-display-units.js';
import { valueText } from '../../../display/text.js';

/** The vehicles kind for an organization showing `units` and allowing `allowed` types (undefined: every type). */
function vehiclesKind(
  units: DisplayUnits,
  allowed: readonly string[] | undefined,
  axleAccess: boolean | undefined,
): SavedDataKind {
  const size = (r: Record<string, unknown>): string =>
    ['length', 'width', 'height'].map((k) => formatMeasure(r[k], 'length', units)).join(' × ');
  return {
    title: 'Vehicles',
    noun: 'vehicle',
    path: '/v1/vehicles',
    nameOf: (r) => valueText(r['name'] ?? r.id),
    specs: vehicleFields(allowed),
    columns: [
      { heading: 'Type', cell: (r) => valueText(r['type']) },
      { heading: `Inner size L × W × H (${measureUnitLabel('length', units)})`, cell: size },
      {
        heading: `Payload (${measureUnitLabel('weight', units)})`,
        cell: (r) => formatMeasure(r['max_weight'], 'weight', units),
        numeric: true,
      },
    ],
    intro: (
      <p>
        Vehicles you save here can be named by <code>vehicle_id</code> in pack requests and projects. Presets of the
        service are read-only.
        {allowed ? ` Your organization's plan allows ${allowed.join(', ')} vehicles.` : ''}
        {axleAccess === false
          ? ' Axle fields (axle_positions, axle_max_loads, …) are kept but not checked: your organization has no axle access.'
          : ''}
      </p>
    ),
  };
}

/** The vehicles page: heading "Vehicles", button "New vehicle", form button "Save vehicle". */
export function VehiclesPage() {
  const units = useDisplayUnits();
  const organization = useSession().session?.organization;
  const allowed = organization?.allowed_vehicle_types;
  const axleAccess = organization?.axle_access;
  const kind = useMemo(() => vehiclesKind(units, allowed, axleAccess), [units, allowed, axleAccess]);
  return <SavedDataPage kind={kind} />;
}
