/**
 * Cargo templates (/v1/templates): saved item definitions named by
 * `template_id` in pack requests, with search, paging, create, edit and delete. Sizes and weights
 * are shown in the organization's display units (cm/kg or in/lb).
 */
import { useMemo } from 'react';
import { TEMPLATE_FIELDS } from '../saved-data/kinds.js';
import { SavedDataPage, type SavedDataKind } from '../saved-data/saved-data-page.js';
import { formatMeasure, measureUnitLabel, type DisplayUnits } from '../units/measure.js';
import { useDisplayUnits } from '../units/use-display-units.js';
import { valueText } from '../../../display/text.js';

/** The templates kind for an organization showing `units`. */
function templatesKind(units: DisplayUnits): SavedDataKind {
  const len = (v: unknown): string => formatMeasure(v, 'length', units) || '?';
  const size = (r: Record<string, unknown>): string =>
    typeof r['radius'] === 'number'
      ? `⌀ ${formatMeasure(2 * r['radius'], 'length', units)} × ${len(r['height'])}`
      : `${len(r['length'])} × ${len(r['width'])} × ${len(r['height'])}`;
  return {
    title: 'Templates',
    noun: 'template',
    path: '/v1/templates',
    nameOf: (r) => valueText(r['label'] ?? r.id),
    specs: TEMPLATE_FIELDS,
    columns: [
      { heading: 'Shape', cell: (r) => valueText(r['shape'] ?? 'box') },
      { heading: `Size (${measureUnitLabel('length', units)})`, cell: size },
      {
        heading: `Weight (${measureUnitLabel('weight', units)})`,
        cell: (r) => formatMeasure(r['weight'], 'weight', units),
        numeric: true,
      },
    ],
    intro: (
      <p>
        Templates are saved items: name one by <code>template_id</code> in a pack request or project, and override any
        field beside it.
      </p>
    ),
  };
}

/** The templates page: heading "Templates", button "New template", form button "Save template". */
export function TemplatesPage() {
  const units = useDisplayUnits();
  const kind = useMemo(() => templatesKind(units), [units]);
  return <SavedDataPage kind={kind} />;
}
