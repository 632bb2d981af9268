/**
 * Excel item files (.xlsx): the first sheet, read in the browser with
 * read-excel-file, into rows for itemsFromRows. Number and boolean cells keep their type; text
 * cells get the same reading as CSV cells (decimal comma tolerated). A file that is not a
 * readable .xlsx gives one problem on row 1.
 */
import readXlsxFile from 'read-excel-file/browser';
import { itemsFromRows, type Cell, type ImportOptions, type ItemImport } from './item-rows.js';

/** Items from the first sheet of an .xlsx file (a File, Blob or its bytes); units as in itemsFromRows. */
export async function itemsFromXlsx(file: Blob | ArrayBuffer, options: ImportOptions = {}): Promise<ItemImport> {
  let rows: Cell[][];
  try {
    const sheets = await readXlsxFile(file);
    rows = (sheets[0]?.data ?? []) as Cell[][];
  } catch (err) {
    return {
      ok: false,
      ignored: [],
      problems: [
        {
          row: 1,
          column: 'A',
          header: '',
          message: `not a readable .xlsx file: ${err instanceof Error ? err.message : String(err)}`,
        },
      ],
    };
  }
  return itemsFromRows(rows, options);
}
