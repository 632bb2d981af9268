/**
 * Cargo templates (issue 11 item "saved data"; /v1/templates): saved item definitions named by
 * `template_id` in pack requests, with search, paging, create, edit and delete.
 */
import { SavedDataPage, type SavedDataKind } from '../saved-data/saved-data-page.js';
import { TEMPLATE_FIELDS } from '../saved-data/kinds.js';

const size = (r: Record<string, unknown>): string =>
  r['radius'] !== undefined ? `⌀ ${2 * Number(r['radius'])} × ${String(r['height'])}` : `${String(r['length'] ?? '?')} × ${String(r['width'] ?? '?')} × ${String(r['height'])}`;

const TEMPLATES: SavedDataKind = {
  title: 'Templates',
  noun: 'template',
  path: '/v1/templates',
  nameOf: (r) => String(r['label'] ?? r.id),
  specs: TEMPLATE_FIELDS,
  columns: [
    { heading: 'Shape', cell: (r) => String(r['shape'] ?? 'box') },
    { heading: 'Size (cm)', cell: size },
    { heading: 'Weight (kg)', cell: (r) => String(r['weight'] ?? ''), numeric: true },
  ],
  intro: <p>Templates are saved items: name one by <code>template_id</code> in a pack request or project, and override any field beside it.</p>,
};

/** The templates page: heading "Templates", button "New template", form button "Save template". */
export function TemplatesPage() {
  return <SavedDataPage kind={TEMPLATES} />;
}
