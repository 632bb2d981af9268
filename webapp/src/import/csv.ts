/**
 * CSV item files (issue 11 item 4): read with papaparse into rows for itemsFromRows, and written
 * from items (the same layout, so a written file imports back to the same items). The delimiter
 * is read from the header row: comma, semicolon (spreadsheets that write decimal commas), tab
 * or bar. A UTF-8 byte-order mark is ignored.
 */
import Papa from 'papaparse';
import type { PackItem } from '../playground/pack-request.js';
import { ITEM_COLUMNS } from './item-columns.js';
import { itemsFromRows, type ItemImport } from './item-rows.js';

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

/** Items from a CSV text (header row first); problems name the row and column (see itemsFromRows). */
export function itemsFromCsv(text: string): ItemImport {
  const clean = text.replace(/^\uFEFF/, '');
  const parsed = Papa.parse<string[]>(clean, { delimiter: csvDelimiter(clean), skipEmptyLines: false });
  return itemsFromRows(parsed.data);
}

/** A CSV text (comma-separated, header row first, the columns the items use in ITEM_COLUMNS order). */
export function csvFromItems(items: readonly PackItem[]): string {
  const fields = ITEM_COLUMNS.map((c) => c.field).filter((f) => f === 'label' || ITEM_COLUMNS.find((c) => c.field === f)!.requiredColumn || items.some((i) => i[f] !== undefined));
  const rows = items.map((item) => fields.map((f) => (item[f] === undefined ? '' : String(item[f]))));
  return Papa.unparse({ fields, data: rows }, { newline: '\n' });
}
