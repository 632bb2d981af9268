/**
 * Rows of an item file (the header row first, then one item per row) into pack items (spec
 * Item), with every bad cell named by its row and column. Nothing is imported while any cell is
 * bad: the outcome is either the items or the problems. Pure: CSV (csv.ts) and Excel (xlsx.ts)
 * files come here as rows of cells.
 */
import type { PackItem } from '../playground/pack-request.js';
import { columnOfHeader, ITEM_COLUMNS, type CellKind, type ItemColumn } from './item-columns.js';

/** A cell as a file reader gives it: text (CSV, Excel), a number or boolean (Excel), or nothing. */
export type Cell = string | number | boolean | Date | null | undefined;

/** One bad cell (or a bad header): spreadsheet row number (header = 1), column letter and header text. */
export interface CellProblem {
  row: number;
  column: string;
  header: string;
  message: string;
}

/** The outcome of an import: the items, or the problems (never both). `ignored`: headers of unknown columns. */
export type ItemImport =
  | { ok: true; items: PackItem[]; ignored: string[] }
  | { ok: false; problems: CellProblem[]; ignored: string[] };

/** Spreadsheet column letters of a 0-based index: 0 → A, 25 → Z, 26 → AA. */
export function columnLetter(index: number): string {
  let n = index + 1;
  let s = '';
  while (n > 0) {
    const r = (n - 1) % 26;
    s = String.fromCharCode(65 + r) + s;
    n = Math.floor((n - 1) / 26);
  }
  return s;
}

const isBlank = (cell: Cell): boolean => cell === null || cell === undefined || (typeof cell === 'string' && cell.trim() === '');

// A number as people write it: one decimal separator, dot or comma; an exponent allowed.
const NUMBER_TEXT = /^[+-]?(\d+([.,]\d*)?|[.,]\d+)([eE][+-]?\d+)?$/;
const TRUE = new Set(['true', 'yes', 'y', '1', 'x']);
const FALSE = new Set(['false', 'no', 'n', '0']);

/** The value of a non-blank cell for `kind`, or the message saying why it is bad. */
export function cellValue(cell: Cell, kind: CellKind): { value: string | number | boolean } | { problem: string } {
  switch (kind.type) {
    case 'text': {
      const text = cell instanceof Date ? cell.toISOString() : String(cell).trim();
      return text.length > kind.maxLength ? { problem: `must be at most ${kind.maxLength} characters, got ${text.length}` } : { value: text };
    }
    case 'number':
    case 'integer': {
      let n: number;
      if (typeof cell === 'number') n = cell;
      else if (typeof cell === 'string' && NUMBER_TEXT.test(cell.trim())) n = Number(cell.trim().replace(',', '.'));
      else return { problem: `must be a number, got ${JSON.stringify(cell instanceof Date ? cell.toISOString() : cell)}` };
      if (!Number.isFinite(n)) return { problem: `must be a finite number, got ${JSON.stringify(cell)}` };
      if (kind.type === 'integer' && !Number.isInteger(n)) return { problem: `must be a whole number, got ${n}` };
      const tooSmall = kind.type === 'number' && kind.minExclusive ? n <= kind.min : n < kind.min;
      if (tooSmall || n > kind.max) {
        const low = kind.type === 'number' && kind.minExclusive ? `more than ${kind.min}` : `at least ${kind.min}`;
        return { problem: `must be ${low} and at most ${kind.max}, got ${n}` };
      }
      return { value: n };
    }
    case 'boolean': {
      if (typeof cell === 'boolean') return { value: cell };
      const text = String(cell).trim().toLowerCase();
      if (TRUE.has(text)) return { value: true };
      if (FALSE.has(text)) return { value: false };
      return { problem: `must be yes or no (true/false, 1/0), got ${JSON.stringify(cell)}` };
    }
    case 'choice': {
      const text = String(cell).trim().toLowerCase();
      return kind.values.includes(text) ? { value: text } : { problem: `must be one of ${kind.values.join(', ')}, got ${JSON.stringify(cell)}` };
    }
    case 'color': {
      const text = String(cell).trim();
      const hex = text.startsWith('#') ? text : `#${text}`;
      return /^#[0-9a-fA-F]{6}$/.test(hex) ? { value: hex } : { problem: `must be a colour #rrggbb, got ${JSON.stringify(cell)}` };
    }
  }
}

const ROUND = new Set(['cylinder', 'drum']);

/**
 * Items from `rows` (rows[0] is the header row). Problems: a required column missing, a column
 * given twice, no data row, and every bad cell: a required value left empty (label, height,
 * weight, quantity; length and width unless the shape is cylinder or drum; radius when it is;
 * none on a row naming a `template_id`, whose template fills the empty cells), a
 * value of the wrong kind or out of range. Blank rows are skipped; unknown columns are ignored
 * and listed in `ignored`.
 */
export function itemsFromRows(rows: readonly (readonly Cell[])[]): ItemImport {
  const problems: CellProblem[] = [];
  const header = rows[0] ?? [];
  const columns: (ItemColumn | undefined)[] = [];
  const ignored: string[] = [];
  const seen = new Map<string, number>();
  header.forEach((cell, i) => {
    const text = isBlank(cell) ? '' : String(cell).trim();
    const column = text === '' ? undefined : columnOfHeader(text);
    if (text !== '' && column === undefined) ignored.push(text);
    if (column !== undefined && seen.has(column.field)) {
      problems.push({ row: 1, column: columnLetter(i), header: text, message: `names the column ${column.field} again (first in column ${columnLetter(seen.get(column.field)!)})` });
      columns.push(undefined);
      return;
    }
    if (column !== undefined) seen.set(column.field, i);
    columns.push(column);
  });
  for (const c of ITEM_COLUMNS) {
    if (c.requiredColumn && !seen.has(c.field)) {
      problems.push({ row: 1, column: columnLetter(header.length), header: c.field, message: `the header row has no ${c.field} column (required: ${ITEM_COLUMNS.filter((x) => x.requiredColumn).map((x) => x.field).join(', ')})` });
    }
  }
  if (problems.length > 0) return { ok: false, problems, ignored };

  const items: PackItem[] = [];
  for (let r = 1; r < rows.length; r++) {
    const row = rows[r]!;
    if (row.every(isBlank)) continue;
    const item: Record<string, string | number | boolean> = {};
    const blank: { field: string; index: number }[] = [];
    columns.forEach((column, i) => {
      if (column === undefined) return;
      const cell = row[i];
      if (isBlank(cell)) {
        blank.push({ field: column.field, index: i });
        return;
      }
      const parsed = cellValue(cell, column.kind);
      if ('problem' in parsed) problems.push({ row: r + 1, column: columnLetter(i), header: String(header[i]).trim(), message: `${column.field} ${parsed.problem}` });
      else item[column.field] = parsed.value;
    });
    const round = typeof item['shape'] === 'string' && ROUND.has(item['shape']);
    // A template supplies every field the row leaves empty (spec Item.template_id).
    const fromTemplate = typeof item['template_id'] === 'string';
    for (const { field, index } of fromTemplate ? [] : blank) {
      const needed = ['label', 'height', 'weight', 'quantity'].includes(field) || (!round && (field === 'length' || field === 'width')) || (round && field === 'radius');
      if (needed) problems.push({ row: r + 1, column: columnLetter(index), header: String(header[index]).trim(), message: `${field} is required${field === 'radius' ? ' for a cylinder or drum' : ''}` });
    }
    if (round && !fromTemplate && !seen.has('radius')) {
      problems.push({ row: r + 1, column: columnLetter(seen.get('shape')!), header: String(header[seen.get('shape')!]).trim(), message: `a ${String(item['shape'])} needs a radius column` });
    }
    items.push(item as PackItem);
  }
  if (problems.length === 0 && items.length === 0) {
    problems.push({ row: 2, column: 'A', header: '', message: 'the file has no item rows below the header row' });
  }
  problems.sort((a, b) => a.row - b.row || a.column.length - b.column.length || a.column.localeCompare(b.column));
  return problems.length > 0 ? { ok: false, problems, ignored } : { ok: true, items, ignored };
}

/** One line per problem: "row 3, column C (Length (cm)): length must be a number, got \"abc\"". */
export function describeProblem(p: CellProblem): string {
  return `row ${p.row}, column ${p.column}${p.header ? ` (${p.header})` : ''}: ${p.message}`;
}
