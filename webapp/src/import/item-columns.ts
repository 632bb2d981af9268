/**
 * The column layout of an item file (CSV or .xlsx; docs/web-app.md, "Playground
 * and jobs"): one header row, then one pack item (spec Item) per row. Columns are named after the
 * spec's Item fields; common variants of a header are accepted in any case ("Qty", "Colour"),
 * and a header may name the unit of its column ("Length (in)", "Weight [lb]", "Height mm"; see
 * import/header-units.ts). The bounds mirror the service's pack schema
 * (api/http/pack-request/schema.ts) so a bad cell is named before anything is sent; the service still
 * judges the whole request.
 */
import type { PackItem } from '../playground/pack-request.js';

/** What a cell of a column must hold. */
export type CellKind =
  | { type: 'text'; maxLength: number }
  | { type: 'number'; min: number; max: number; minExclusive?: boolean }
  | { type: 'integer'; min: number; max: number }
  | { type: 'boolean' }
  | { type: 'choice'; values: readonly string[] }
  | { type: 'color' };

/** One column: the spec Item field it fills, what it holds, the header variants it answers to. */
export interface ItemColumn {
  field: keyof PackItem;
  kind: CellKind;
  /** The header row must have this column (label, length, width, height, weight, quantity). */
  requiredColumn: boolean;
  /** Header spellings besides the field name, already in normal form (see headerKey). */
  variants: readonly string[];
  /** The API's unit of the column's values (cm or kg); a header may name another unit of the same quantity. */
  unit?: 'cm' | 'kg';
}

const MIN_CM = 0.1;
const MAX_CM = 100_000;
const MAX_KG = 1_000_000_000;
const size = { type: 'number', min: MIN_CM, max: MAX_CM } as const;

/** Every column, in the order a written file uses. */
export const ITEM_COLUMNS: readonly ItemColumn[] = [
  {
    field: 'label',
    kind: { type: 'text', maxLength: 255 },
    requiredColumn: true,
    variants: ['name', 'description', 'item', 'item name', 'article'],
  },
  { field: 'length', kind: size, requiredColumn: true, variants: ['len', 'l'], unit: 'cm' },
  { field: 'width', kind: size, requiredColumn: true, variants: ['w', 'breadth'], unit: 'cm' },
  { field: 'height', kind: size, requiredColumn: true, variants: ['h'], unit: 'cm' },
  {
    field: 'weight',
    kind: { type: 'number', min: 0, max: MAX_KG, minExclusive: true },
    requiredColumn: true,
    variants: ['unit weight', 'weight per unit', 'mass'],
    unit: 'kg',
  },
  {
    field: 'quantity',
    kind: { type: 'integer', min: 1, max: 10_000 },
    requiredColumn: true,
    variants: ['qty', 'count', 'units', 'pieces', 'pcs'],
  },
  { field: 'id', kind: { type: 'text', maxLength: 128 }, requiredColumn: false, variants: ['item id', 'sku'] },
  { field: 'template_id', kind: { type: 'text', maxLength: 128 }, requiredColumn: false, variants: ['template'] },
  {
    field: 'shape',
    kind: { type: 'choice', values: ['box', 'cylinder', 'pallet', 'bag', 'drum'] },
    requiredColumn: false,
    variants: [],
  },
  { field: 'radius', kind: size, requiredColumn: false, variants: ['r'], unit: 'cm' },
  { field: 'stackable', kind: { type: 'boolean' }, requiredColumn: false, variants: ['stack', 'stackable?'] },
  {
    field: 'rotation',
    kind: { type: 'choice', values: ['all', 'upright', 'fixed'] },
    requiredColumn: false,
    variants: ['rotate', 'rotations'],
  },
  {
    field: 'max_stack_weight',
    kind: { type: 'number', min: 0, max: MAX_KG },
    requiredColumn: false,
    variants: ['stack weight', 'max load on top'],
    unit: 'kg',
  },
  // A delivery stop is the item's group (spec Item.group; multi-drop loads groups in order).
  {
    field: 'group',
    kind: { type: 'text', maxLength: 128 },
    requiredColumn: false,
    variants: ['group name', 'stop', 'drop', 'stop no', 'drop no', 'stop #', 'drop #', 'stop number', 'drop number'],
  },
  { field: 'color', kind: { type: 'color' }, requiredColumn: false, variants: ['colour'] },
  {
    field: 'hazardous',
    kind: { type: 'boolean' },
    requiredColumn: false,
    variants: ['hazard', 'hazmat', 'dangerous', 'dangerous goods'],
  },
  { field: 'priority', kind: { type: 'integer', min: 0, max: 1_000_000 }, requiredColumn: false, variants: ['prio'] },
  {
    field: 'nesting_height',
    kind: { type: 'number', min: 0, max: MAX_CM },
    requiredColumn: false,
    variants: ['nesting'],
    unit: 'cm',
  },
];

/**
 * The normal form of a header cell's name: lower case, a trailing unit in brackets dropped
 * ("Length (cm)" → "length"), underscores, hyphens, dots and runs of spaces made one space.
 */
export function headerKey(header: string): string {
  return normalName(splitBracket(header).name);
}

const normalName = (text: string): string =>
  text
    .replace(/^\uFEFF/, '')
    .toLowerCase()
    .replace(/[\s_.-]+/g, ' ')
    .trim();

/** A header cell as its name and the text of a trailing `(…)` or `[…]`, if any. */
function splitBracket(header: string): { name: string; bracket: string | undefined } {
  const m = /^(.*?)\s*[([]([^()[\]]*)[)\]]\s*$/.exec(header.trim());
  return m ? { name: m[1]!, bracket: m[2]!.trim() } : { name: header, bracket: undefined };
}

const BY_HEADER = new Map<string, ItemColumn>(
  ITEM_COLUMNS.flatMap((c) => [headerKey(c.field), ...c.variants].map((k) => [k, c] as const)),
);

/** The column a header cell names, or undefined for a column the import ignores. */
export function columnOfHeader(header: string): ItemColumn | undefined {
  return readHeader(header).column;
}

/**
 * A header cell read: the column it names (undefined: a column the import ignores) and the unit
 * it writes, as written (undefined: none). The unit is the text in a trailing `(…)` or `[…]`
 * ("Length (in)", "Weight [lb]"), or, for a column measured in cm or kg, the last word after a
 * column name ("Length mm", "weight_lbs", "Height inches"). Whether the unit is known and fits
 * the column is for the caller (import/header-units.ts).
 */
export function readHeader(header: string): { column: ItemColumn | undefined; unit: string | undefined } {
  const { name, bracket } = splitBracket(header);
  const key = normalName(name);
  const whole = BY_HEADER.get(key);
  if (whole) return { column: whole, unit: bracket === '' ? undefined : bracket };
  if (bracket === undefined) {
    const m = /^(.+) (\S+)$/.exec(normalName(header.replace(/\.$/, '')));
    const column = m ? BY_HEADER.get(m[1]!) : undefined;
    if (column?.unit) return { column, unit: m![2]! };
  }
  return { column: undefined, unit: undefined };
}
