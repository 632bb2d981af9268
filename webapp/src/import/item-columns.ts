/**
 * The column layout of an item file (CSV or .xlsx, issue 11 item 4; README "Web app: playground
 * and jobs"): one header row, then one pack item (spec Item) per row. Columns are named after the
 * spec's Item fields; common variants of a header are accepted in any case, with a unit in
 * brackets ignored ("Length (cm)", "Qty", "Colour"). The bounds mirror the service's pack schema
 * (api/pack-request/schema.ts) so a bad cell is named before anything is sent; the service still
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
  /** The header row must have this column (issue 11: label, length, width, height, weight, quantity). */
  requiredColumn: boolean;
  /** Header spellings besides the field name, already in normal form (see headerKey). */
  variants: readonly string[];
  /** Unit shown in the README and in messages. */
  unit?: 'cm' | 'kg';
}

const MIN_CM = 0.1;
const MAX_CM = 100_000;
const MAX_KG = 1_000_000_000;
const size = { type: 'number', min: MIN_CM, max: MAX_CM } as const;

/** Every column, in the order a written file uses. */
export const ITEM_COLUMNS: readonly ItemColumn[] = [
  { field: 'label', kind: { type: 'text', maxLength: 255 }, requiredColumn: true, variants: ['name', 'description', 'item', 'item name', 'article'] },
  { field: 'length', kind: size, requiredColumn: true, variants: ['len', 'l'], unit: 'cm' },
  { field: 'width', kind: size, requiredColumn: true, variants: ['w', 'breadth'], unit: 'cm' },
  { field: 'height', kind: size, requiredColumn: true, variants: ['h'], unit: 'cm' },
  { field: 'weight', kind: { type: 'number', min: 0, max: MAX_KG, minExclusive: true }, requiredColumn: true, variants: ['unit weight', 'weight per unit', 'mass'], unit: 'kg' },
  { field: 'quantity', kind: { type: 'integer', min: 1, max: 10_000 }, requiredColumn: true, variants: ['qty', 'count', 'units', 'pieces', 'pcs'] },
  { field: 'id', kind: { type: 'text', maxLength: 128 }, requiredColumn: false, variants: ['item id', 'sku'] },
  { field: 'template_id', kind: { type: 'text', maxLength: 128 }, requiredColumn: false, variants: ['template'] },
  { field: 'shape', kind: { type: 'choice', values: ['box', 'cylinder', 'pallet', 'bag', 'drum'] }, requiredColumn: false, variants: [] },
  { field: 'radius', kind: size, requiredColumn: false, variants: ['r'], unit: 'cm' },
  { field: 'stackable', kind: { type: 'boolean' }, requiredColumn: false, variants: ['stack', 'stackable?'] },
  { field: 'rotation', kind: { type: 'choice', values: ['all', 'upright', 'fixed'] }, requiredColumn: false, variants: ['rotate', 'rotations'] },
  { field: 'max_stack_weight', kind: { type: 'number', min: 0, max: MAX_KG }, requiredColumn: false, variants: ['stack weight', 'max load on top'], unit: 'kg' },
  { field: 'group', kind: { type: 'text', maxLength: 128 }, requiredColumn: false, variants: ['group name'] },
  { field: 'color', kind: { type: 'color' }, requiredColumn: false, variants: ['colour'] },
  { field: 'hazardous', kind: { type: 'boolean' }, requiredColumn: false, variants: ['hazard', 'hazmat', 'dangerous', 'dangerous goods'] },
  { field: 'priority', kind: { type: 'integer', min: 0, max: 1_000_000 }, requiredColumn: false, variants: ['prio'] },
  { field: 'nesting_height', kind: { type: 'number', min: 0, max: MAX_CM }, requiredColumn: false, variants: ['nesting'], unit: 'cm' },
];

/**
 * The normal form of a header cell: lower case, a trailing unit in brackets dropped
 * ("Length (cm)" → "length"), underscores, hyphens, dots and runs of spaces made one space.
 */
export function headerKey(header: string): string {
  return header
    .replace(/^\uFEFF/, '')
    .toLowerCase()
    .replace(/\s*[([].*?[)\]]\s*$/, '')
    .replace(/[\s_.-]+/g, ' ')
    .trim();
}

const BY_HEADER = new Map<string, ItemColumn>(
  ITEM_COLUMNS.flatMap((c) => [headerKey(c.field), ...c.variants].map((k) => [k, c] as const)),
);

/** The column a header cell names, or undefined for a column the import ignores. */
export function columnOfHeader(header: string): ItemColumn | undefined {
  return BY_HEADER.get(headerKey(header));
}
