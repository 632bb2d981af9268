/**
 * The item file template the playground offers for download (web app: item files): a CSV with
 * every column the import reads (ITEM_COLUMNS, in their order), measured columns naming their
 * unit in the header ("length (cm)", "weight (kg)", as header-units.ts reads them, so the file
 * reads the same in an organization of either display units), and one example row. Only CSV: the
 * web app bundles an .xlsx reader (read-excel-file) but no writer.
 */
import Papa from 'papaparse';
import type { PackItem } from '../playground/pack-request.js';
import { ITEM_COLUMNS } from './item-columns.js';

/**
 * The template's example item (cm, kg): a EUR pallet for stop 1. `template_id` and `radius` are
 * left empty (a template id names a saved template; a radius is for cylinders and drums).
 */
export const TEMPLATE_EXAMPLE: PackItem = {
  label: 'EUR pallet',
  length: 120,
  width: 80,
  height: 150,
  weight: 250,
  quantity: 4,
  id: 'pallet-1',
  shape: 'pallet',
  stackable: true,
  rotation: 'upright',
  max_stack_weight: 500,
  group: 'Stop 1',
  color: '#1f77b4',
  hazardous: false,
  priority: 0,
  nesting_height: 0,
};

/** The header of a column in the template: its field, with its unit for measured ones ("length (cm)"). */
const headerOf = (c: (typeof ITEM_COLUMNS)[number]): string => (c.unit ? `${c.field} (${c.unit})` : c.field);

/** The template: a header row naming every column, then TEMPLATE_EXAMPLE (blank where it has no value). */
export function itemTemplateCsv(): string {
  const example = TEMPLATE_EXAMPLE as Record<string, unknown>;
  return Papa.unparse(
    {
      fields: ITEM_COLUMNS.map(headerOf),
      data: [ITEM_COLUMNS.map((c) => (example[c.field] === undefined ? '' : String(example[c.field])))],
    },
    { newline: '\n' },
  );
}
