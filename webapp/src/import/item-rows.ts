/**
 * Rows of an item file (the header row first, then one item per row) into pack items (spec
 * Item), with every bad cell named by its row and column. Nothing is imported while any cell is
 * bad: the outcome is either the items or the problems. Pure: CSV (csv.ts) and Excel (xlsx.ts)
 * files come here as rows of cells. Lengths and weights are converted to the API's cm and kg from
 * the unit each header names, or from the organization's display units (import/header-units.ts).
 */
import type { PackItem } from '../playground/pack-request.js';
import type { DisplayUnits } from '../units/measure.js';
import { API_UNIT, toApiUnit, type Unit } from '../units/unit-names.js';
import { columnUnit, quantityOf, type Conversion } from './header-units.js';
import { ITEM_COLUMNS, readHeader, type CellKind, type ItemColumn } from './item-columns.js';

/** A cell as a file reader gives it: text (CSV, Excel), a number or boolean (Excel), or nothing. */
export type Cell = string | number | boolean | Date | null | undefined;

/** One bad cell (or a bad header): spreadsheet row number (header = 1), column letter and header text. */
export interface CellProblem {
  row: number;
  column: string;
  header: string;
  message: string;
}

/**
 * The outcome of an import: the items (cm and kg) with, for each, the spreadsheet row it came
 * from (`rows[i]` for `items[i]`; header = 1), or the problems (never both). `ignored`:
 * headers of unknown columns; `conversions`: the measured columns read in another unit than cm
 * or kg (present only when there is one).
 */
export type ItemImport =
  | { ok: true; items: PackItem[]; rows: number[]; ignored: string[]; conversions?: Conversion[] }
  | { ok: false; problems: CellProblem[]; ignored: string[]; conversions?: Conversion[] };

/** How an import reads headers without a unit: in the organization's display units (metric unless given). */
export interface ImportOptions {
  displayUnits?: DisplayUnits;
}

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

const isBlank = (cell: Cell): boolean =>
  cell === null || cell === undefined || (typeof cell === 'string' && cell.trim() === '');

// A number as people write it: one decimal separator, dot or comma; an exponent allowed.
const NUMBER_TEXT = /^[+-]?(\d+([.,]\d*)?|[.,]\d+)([eE][+-]?\d+)?$/;
const TRUE = new Set(['true', 'yes', 'y', '1', 'x']);
const FALSE = new Set(['false', 'no', 'n', '0']);

/**
 * The value of a non-blank cell for `kind`, or the message saying why it is bad. A number
 * written in `unit` (a length or weight unit other than cm or kg) is converted to cm or kg
 * first (toApiUnit), and the bounds, which are in cm or kg, judge the converted value.
 */
export function cellValue(
  cell: Cell,
  kind: CellKind,
  unit?: Unit,
): { value: string | number | boolean } | { problem: string } {
  switch (kind.type) {
    case 'text': {
      const text = cell instanceof Date ? cell.toISOString() : String(cell).trim();
      return text.length > kind.maxLength
        ? { problem: `must be at most ${kind.maxLength} characters, got ${text.length}` }
        : { value: text };
    }
    case 'number':
    case 'integer': {
      let n: number;
      if (typeof cell === 'number') n = cell;
      else if (typeof cell === 'string' && NUMBER_TEXT.test(cell.trim())) n = Number(cell.trim().replace(',', '.'));
      else
        return { problem: `must be a number, got ${JSON.stringify(cell instanceof Date ? cell.toISOString() : cell)}` };
      if (!Number.isFinite(n)) return { problem: `must be a finite number, got ${JSON.stringify(cell)}` };
      if (kind.type === 'integer' && !Number.isInteger(n)) return { problem: `must be a whole number, got ${n}` };
      // A converted value is judged in cm or kg and the message shows both units.
      const converted =
        unit && unit.factor !== 1
          ? { written: n, api: API_UNIT[unit.quantity].symbol, symbol: unit.symbol }
          : undefined;
      if (unit && converted) n = toApiUnit(n, unit);
      const tooSmall = kind.type === 'number' && kind.minExclusive ? n <= kind.min : n < kind.min;
      if (tooSmall || n > kind.max) {
        const api = converted ? ` ${converted.api}` : '';
        const low =
          kind.type === 'number' && kind.minExclusive ? `more than ${kind.min}${api}` : `at least ${kind.min}${api}`;
        const got = converted ? `${converted.written} ${converted.symbol} = ${n}${api}` : String(n);
        return { problem: `must be ${low} and at most ${kind.max}${api}, got ${got}` };
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
      return kind.values.includes(text)
        ? { value: text }
        : { problem: `must be one of ${kind.values.join(', ')}, got ${JSON.stringify(cell)}` };
    }
    case 'color': {
      const text = String(cell).trim();
      const hex = text.startsWith('#') ? text : `#${text}`;
      return /^#[0-9a-fA-F]{6}$/.test(hex)
        ? { value: hex }
        : { problem: `must be a colour #rrggbb, got ${JSON.stringify(cell)}` };
    }
  }
}

const ROUND = new Set(['cylinder', 'drum']);

/**
 * Items from `rows` (rows[0] is the header row), lengths in cm and weights in kg. Problems: a
 * required column missing, a column given twice, a header naming a unit that is unknown,
 * ambiguous or of the other quantity (header-units.ts), no data row, and every bad cell: a required value left empty (label, height,
 * weight, quantity; length and width unless the shape is cylinder or drum; radius when it is;
 * none on a row naming a `template_id`, whose template fills the empty cells), a
 * value of the wrong kind or out of range. Blank rows are skipped; unknown columns are ignored
 * and listed in `ignored`.
 */
export function itemsFromRows(rows: readonly (readonly Cell[])[], options: ImportOptions = {}): ItemImport {
  const displayUnits = options.displayUnits ?? 'metric';
  const problems: CellProblem[] = [];
  const header = rows[0] ?? [];
  const columns: (ItemColumn | undefined)[] = [];
  const units: (Unit | undefined)[] = [];
  const conversions: Conversion[] = [];
  const ignored: string[] = [];
  const seen = new Map<string, number>();
  header.forEach((cell, i) => {
    const text = isBlank(cell) ? '' : String(cell).trim();
    const read = text === '' ? { column: undefined, unit: undefined } : readHeader(text);
    const column = read.column;
    if (text !== '' && column === undefined) ignored.push(text);
    if (column !== undefined && seen.has(column.field)) {
      problems.push({
        row: 1,
        column: columnLetter(i),
        header: text,
        message: `names the column ${column.field} again (first in column ${columnLetter(seen.get(column.field)!)})`,
      });
      columns.push(undefined);
      units.push(undefined);
      return;
    }
    if (column !== undefined) seen.set(column.field, i);
    columns.push(column);
    const unit = column === undefined ? undefined : columnUnit(column, read.unit, displayUnits);
    if (unit && 'problem' in unit) {
      problems.push({ row: 1, column: columnLetter(i), header: text, message: unit.problem });
      units.push(undefined);
      return;
    }
    units.push(unit?.unit);
    const quantity = column && quantityOf(column);
    if (unit?.unit && quantity && unit.unit.factor !== 1)
      conversions.push({
        field: column.field,
        header: text,
        from: unit.unit,
        to: API_UNIT[quantity],
        source: unit.source,
      });
  });
  const withConversions = conversions.length > 0 ? { conversions } : {};
  for (const c of ITEM_COLUMNS) {
    if (c.requiredColumn && !seen.has(c.field)) {
      problems.push({
        row: 1,
        column: columnLetter(header.length),
        header: c.field,
        message: `the header row has no ${c.field} column (required: ${ITEM_COLUMNS.filter((x) => x.requiredColumn)
          .map((x) => x.field)
          .join(', ')})`,
      });
    }
  }
  if (problems.length > 0) return { ok: false, problems, ignored, ...withConversions };

  const items: PackItem[] = [];
  const itemRows: number[] = [];
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
      const parsed = cellValue(cell, column.kind, units[i]);
      if ('problem' in parsed)
        problems.push({
          row: r + 1,
          column: columnLetter(i),
          header: String(header[i]).trim(),
          message: `${column.field} ${parsed.problem}`,
        });
      else item[column.field] = parsed.value;
    });
    const round = typeof item['shape'] === 'string' && ROUND.has(item['shape']);
    // A template supplies every field the row leaves empty (spec Item.template_id).
    const fromTemplate = typeof item['template_id'] === 'string';
    for (const { field, index } of fromTemplate ? [] : blank) {
      const needed =
        ['label', 'height', 'weight', 'quantity'].includes(field) ||
        (!round && (field === 'length' || field === 'width')) ||
        (round && field === 'radius');
      if (needed)
        problems.push({
          row: r + 1,
          column: columnLetter(index),
          header: String(header[index]).trim(),
          message: `${field} is required${field === 'radius' ? ' for a cylinder or drum' : ''}`,
        });
    }
    if (round && !fromTemplate && !seen.has('radius')) {
      problems.push({
        row: r + 1,
        column: columnLetter(seen.get('shape')!),
        header: String(header[seen.get('shape')!]).trim(),
        message: `a ${String(item['shape'])} needs a radius column`,
      });
    }
    items.push(item);
    itemRows.push(r + 1);
  }
  if (problems.length === 0 && items.length === 0) {
    problems.push({ row: 2, column: 'A', header: '', message: 'the file has no item rows below the header row' });
  }
  problems.sort((a, b) => a.row - b.row || a.column.length - b.column.length || a.column.localeCompare(b.column));
  return problems.length > 0
    ? { ok: false, problems, ignored, ...withConversions }
    : { ok: true, items, rows: itemRows, ignored, ...withConversions };
}

/** One line per problem: "row 3, column C (Length (cm)): length must be a number, got \"abc\"". */
export function describeProblem(p: CellProblem): string {
  return `row ${p.row}, column ${p.column}${p.header ? ` (${p.header})` : ''}: ${p.message}`;
}
