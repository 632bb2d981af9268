/**
 * The cells of the playground's item table (spec PackRequest → Item): which Item fields a planner
 * edits there, what each cell shows in the organization's display units (units/measure.ts), and
 * the item after one cell is changed. Every other field of the item (shape, radius, priority,
 * color, nesting_height, template_id, fields the table does not know) is carried over untouched.
 * An emptied cell leaves its field out, so the service's default applies.
 */
import {
  lengthFromDisplay,
  lengthToDisplay,
  roundForDisplay,
  weightFromDisplay,
  weightToDisplay,
  type DisplayUnits,
} from '../units/measure.js';

/** One item of the request as the table holds it: an Item object, possibly with fields the table does not show. */
export type TableItem = Readonly<Record<string, unknown>>;

/** Spec Item.rotation values; the empty choice leaves the field out (default `all`). */
export const ROTATION_CHOICES = ['all', 'upright', 'fixed'] as const;

/** A column of the item table: the Item field it edits and how. */
export type ItemColumn =
  | { field: 'id' | 'label' | 'group'; kind: 'text'; header: string }
  | { field: 'quantity'; kind: 'count'; header: string }
  | { field: 'length' | 'width' | 'height'; kind: 'length'; header: string }
  | { field: 'weight' | 'max_stack_weight'; kind: 'weight'; header: string }
  | { field: 'rotation'; kind: 'rotation'; header: string }
  | { field: 'stackable' | 'hazardous'; kind: 'flag'; header: string; fallback: boolean };

/** The columns in table order (spec Item fields a planner edits daily). */
export const ITEM_COLUMNS: readonly ItemColumn[] = [
  { field: 'id', kind: 'text', header: 'Id' },
  { field: 'label', kind: 'text', header: 'Label' },
  { field: 'quantity', kind: 'count', header: 'Quantity' },
  { field: 'length', kind: 'length', header: 'Length' },
  { field: 'width', kind: 'length', header: 'Width' },
  { field: 'height', kind: 'length', header: 'Height' },
  { field: 'weight', kind: 'weight', header: 'Unit weight' },
  { field: 'rotation', kind: 'rotation', header: 'Rotation' },
  { field: 'stackable', kind: 'flag', header: 'Stackable', fallback: true },
  { field: 'max_stack_weight', kind: 'weight', header: 'Max load on top' },
  { field: 'hazardous', kind: 'flag', header: 'Hazardous', fallback: false },
  { field: 'group', kind: 'text', header: 'Group' },
];

/**
 * What a cell shows: a flag cell its boolean (the spec default when the field is absent or not a
 * boolean); any other cell the text of its input: a length in cm or in, a weight in kg or lb
 * (at most 2 decimals), `''` when the field is absent or of another type than the column's.
 */
export function cellValue(item: TableItem, column: ItemColumn, units: DisplayUnits): string | boolean {
  const value = item[column.field];
  switch (column.kind) {
    case 'flag':
      return typeof value === 'boolean' ? value : column.fallback;
    case 'text':
    case 'rotation':
      return typeof value === 'string' ? value : '';
    case 'count':
      return typeof value === 'number' && Number.isFinite(value) ? String(value) : '';
    case 'length':
      return typeof value === 'number' && Number.isFinite(value) ? roundForDisplay(lengthToDisplay(value, units)) : '';
    case 'weight':
      return typeof value === 'number' && Number.isFinite(value) ? roundForDisplay(weightToDisplay(value, units)) : '';
  }
}

/** A converted figure for the API: cm or kg with at most 4 decimals (no float noise such as 119.88000000000001). */
const apiFigure = (value: number): number => Number(value.toFixed(4));

/**
 * The item with the cell of `column` set to `input` (a flag's boolean, or an input's text in
 * display units); every other field is kept as it was. Text `''` (or text that is not a number
 * in a number column) leaves the field out. Lengths and weights typed in inches or pounds are
 * stored in cm and kg (4 decimals); metric figures are stored as typed.
 */
export function withCell(item: TableItem, column: ItemColumn, input: string | boolean, units: DisplayUnits): TableItem {
  const { [column.field]: _old, ...rest } = item;
  if (column.kind === 'flag') return { ...item, [column.field]: input === true };
  const text = typeof input === 'string' ? input : '';
  let value: string | number | undefined;
  if (column.kind === 'text' || column.kind === 'rotation') value = text === '' ? undefined : text;
  else {
    const n = text.trim() === '' ? Number.NaN : Number(text);
    if (!Number.isFinite(n)) value = undefined;
    else if (column.kind === 'count') value = n;
    else if (column.kind === 'length') value = units === 'metric' ? n : apiFigure(lengthFromDisplay(n, units));
    else value = units === 'metric' ? n : apiFigure(weightFromDisplay(n, units));
  }
  if (value === undefined) return rest;
  // Keep the field's place among the item's keys when it was there.
  return column.field in item ? { ...item, [column.field]: value } : { ...rest, [column.field]: value };
}

/**
 * The accessible name of row `index` (0-based) of `items`: its `id`, else its `template_id`, else
 * its `label`, else "item N"; with " (row N)" when another row has the same name.
 */
export function rowName(items: readonly TableItem[], index: number): string {
  const base = (item: TableItem | undefined, i: number): string => {
    for (const field of ['id', 'template_id', 'label']) {
      const v = item?.[field];
      if (typeof v === 'string' && v.trim() !== '') return v;
    }
    return `item ${i + 1}`;
  };
  const name = base(items[index], index);
  const shared = items.some((other, i) => i !== index && base(other, i) === name);
  return shared ? `${name} (row ${index + 1})` : name;
}

/** A new row for the table: `{id: 'item-N', quantity: 1}` with the first N that no other item's id uses. */
export function newItem(items: readonly TableItem[]): TableItem {
  const ids = new Set(items.map((i) => i['id']));
  let n = items.length + 1;
  while (ids.has(`item-${n}`)) n += 1;
  return { id: `item-${n}`, quantity: 1 };
}
