/**
 * Vehicles (issue 11 item "saved data"; /v1/vehicles): the organization's vehicles and the
 * service's presets (read-only, "Copy as new"), with search, paging, create, edit and delete.
 */
import { SavedDataPage, type SavedDataKind } from '../saved-data/saved-data-page.js';
import { VEHICLE_FIELDS } from '../saved-data/kinds.js';

const size = (r: Record<string, unknown>): string => `${String(r['length'])} × ${String(r['width'])} × ${String(r['height'])}`;

const VEHICLES: SavedDataKind = {
  title: 'Vehicles',
  noun: 'vehicle',
  path: '/v1/vehicles',
  nameOf: (r) => String(r['name'] ?? r.id),
  specs: VEHICLE_FIELDS,
  columns: [
    { heading: 'Type', cell: (r) => String(r['type'] ?? '') },
    { heading: 'Inner size L × W × H (cm)', cell: size },
    { heading: 'Payload (kg)', cell: (r) => String(r['max_weight'] ?? ''), numeric: true },
  ],
  intro: <p>Vehicles you save here can be named by <code>vehicle_id</code> in pack requests and projects. Presets of the service are read-only.</p>,
};

/** The vehicles page: heading "Vehicles", button "New vehicle", form button "Save vehicle". */
export function VehiclesPage() {
  return <SavedDataPage kind={VEHICLES} />;
}
