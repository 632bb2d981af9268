/**
 * An item file chosen in the playground, by its name: `.csv`/`.txt` as CSV, `.xlsx` as Excel.
 * Other types (including the old binary `.xls`) give one problem asking for CSV or .xlsx.
 */
import { itemsFromCsv } from './csv.js';
import type { ImportOptions, ItemImport } from './item-rows.js';
import { itemsFromXlsx } from './xlsx.js';

/** Items from `file` (name decides the reader; units as in itemsFromRows); never throws. */
export async function itemsFromFile(
  file: { name: string; text(): Promise<string>; arrayBuffer(): Promise<ArrayBuffer> },
  options: ImportOptions = {},
): Promise<ItemImport> {
  const name = file.name.toLowerCase();
  if (name.endsWith('.xlsx')) return itemsFromXlsx(await file.arrayBuffer(), options);
  if (name.endsWith('.csv') || name.endsWith('.txt') || name.endsWith('.tsv'))
    return itemsFromCsv(await file.text(), options);
  return {
    ok: false,
    ignored: [],
    problems: [
      {
        row: 1,
        column: 'A',
        header: '',
        message: `${file.name}: choose a .csv or .xlsx file (Excel: Save As → .xlsx or CSV)`,
      },
    ],
  };
}
