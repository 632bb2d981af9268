/**
 * The loading list as a file: CSV (RFC 4180, UTF-8, CRLF, header row) or Excel (.xlsx, one sheet
 * "Loading list" with a header row and numeric cells as numbers). Text cells that a spreadsheet
 * would run as a formula (starting with `=`, `+`, `-`, `@`, tab or CR: CSV injection) are
 * prefixed with `'` in both formats; numbers are never changed.
 */
import Papa from 'papaparse';
import { LOADING_LIST_COLUMNS, type LoadingListCell, type LoadingListRow } from './loading-list.js';

/** The file formats of the loading list. */
export const LOADING_LIST_FORMATS = ['csv', 'xlsx'] as const;
export type LoadingListFormat = (typeof LOADING_LIST_FORMATS)[number];

/** Content type of each format. */
export const LOADING_LIST_CONTENT_TYPES: Readonly<Record<LoadingListFormat, string>> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

const FORMULA_START = /^[=+\-@\t\r]/;

/** `cell` safe to open in a spreadsheet: text that would start a formula gets a leading `'`. */
export function neutralised(cell: LoadingListCell): LoadingListCell {
  return typeof cell === 'string' && FORMULA_START.test(cell) ? `'${cell}` : cell;
}

const table = (rows: readonly LoadingListRow[]): LoadingListCell[][] =>
  rows.map((r) => LOADING_LIST_COLUMNS.map((c) => neutralised(r[c])));

/** The CSV text of `rows` with its header row (CRLF line ends, fields quoted where RFC 4180 needs it). */
export function loadingListCsv(rows: readonly LoadingListRow[]): string {
  return Papa.unparse({ fields: [...LOADING_LIST_COLUMNS], data: table(rows) }, { newline: '\r\n' }) + '\r\n';
}

/**
 * The .xlsx bytes of `rows`: one sheet, a bold header row, numbers as numeric cells. The writer
 * (write-excel-file, some 80 modules) loads with the first spreadsheet asked for, not with the
 * service.
 */
export async function loadingListXlsx(rows: readonly LoadingListRow[]): Promise<Buffer> {
  const { default: writeXlsxFile } = await import('write-excel-file/node');
  const header = LOADING_LIST_COLUMNS.map((c) => ({ value: c, fontWeight: 'bold' as const }));
  const data = table(rows).map((row) =>
    row.map((v) => (typeof v === 'number' ? { value: v, type: Number } : v === '' ? null : { value: v, type: String })),
  );
  return writeXlsxFile([header, ...data], { sheet: 'Loading list', stickyRowsCount: 1 }).toBuffer();
}
