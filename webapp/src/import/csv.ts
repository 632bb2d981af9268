/**
 * CSV item files: read with papaparse into rows for itemsFromRows, and written
 * from items (the same layout, so a written file imports back to the same items). The delimiter
 * is read from the header row: comma, semicolon (spreadsheets that write decimal commas), tab
 * or bar. A UTF-8 byte-order mark is ignored.
 */
import Papa from 'papaparse';
import type { PackItem } from '../playground/pack-request.js';
import { ITEM_COLUMNS } from './item-columns.js';
import { itemsFromRows, type ImportOptions, type ItemImport } from './item-rows.js';

const DELIMITERS = [',', ';', '\t', '|'] as const;

/** The delimiter of a CSV text: the one found most often in its first line (comma on a tie or none). */
export function csvDelimiter(text: string): string {
  const first = text.split(/\r?\n/, 1)[0] ?? '';
  let best: string = ',';
  let most = 0;
  for (const d of DELIMITERS) {
    const n = first.split(d).length - 1;
    if (n > most) {
      best = d;
      most = n;
    }
  }
  return best;
}

/**
 * Items from a CSV text (header row first; lengths and weights in the unit each header names,
 * else in `options.displayUnits`); problems name the row and column (see itemsFromRows).
 */
export function itemsFromCsv(text: string, options: ImportOptions = {}): ItemImport {
  const clean = text.replace(/^\uFEFF/, '');
  const parsed = Papa.parse<string[]>(clean, { delimiter: csvDelimiter(clean), skipEmptyLines: false });
  return itemsFromRows(parsed.data, options);
}

/**
 * A CSV text (comma-separated, header row first, the columns the items use in ITEM_COLUMNS
 * order). Measured columns name their unit ("length (cm)", "weight (kg)"), so the file reads
 * back the same in an organization of either display units.
 */
export function csvFromItems(items: readonly PackItem[]): string {
  const columns = ITEM_COLUMNS.filter(
    (c) => c.field === 'label' || c.requiredColumn || items.some((i) => i[c.field] !== undefined),
  );
  const rows = items.map((item) => columns.map((c) => (item[c.field] === undefined ? '' : String(item[c.field]))));
  return Papa.unparse(
    { fields: columns.map((c) => (c.unit ? `${c.field} (${c.unit})` : c.field)), data: rows },
    { newline: '\n' },
  );
}
