/**
 * The estimate's problems in the playground's words (spec Estimate `errors`, ErrorDetail `path`
 * such as `items[25].id`): a path into the items names the item by its position (1-based), its
 * label and, when it was imported, the file row it came from (import/item-origins.ts), so that
 * `items[25].id` reads "item 26 (EUR pallet) — row 27 of items.csv, id: …". References to other
 * items inside the message (`items[3]`) read "item 4 (Carton)". Other paths are kept as written.
 * The summary line says what is missing instead of the zeros an invalid estimate answers.
 */
import { originOf, type ItemOrigin } from '../import/item-origins.js';

/** One problem of an estimate (spec ErrorDetail). */
export interface EstimateDetail {
  path: string;
  message: string;
}

/** An item's name for people: its label, else its template or id, else nothing. */
function nameOf(item: unknown): string | undefined {
  if (item === null || typeof item !== 'object') return undefined;
  const r = item as Record<string, unknown>;
  for (const f of ['label', 'template_id', 'id']) if (typeof r[f] === 'string' && r[f] !== '') return r[f];
  return undefined;
}

/** "item 4 (Carton)": the item at 0-based `index` of `items`. */
export function itemName(items: readonly unknown[], index: number): string {
  const name = nameOf(items[index]);
  return `item ${index + 1}${name === undefined ? '' : ` (${name})`}`;
}

const ITEM_PATH = /^items\[(\d+)\](?:\.(.+))?$/;

/**
 * `detail` as a sentence: "item 26 (EUR pallet) — row 27 of items.csv, id: <message>" for a path
 * into `items` (without a row for a typed item, without a field for the item as a whole), else
 * "<path>: <message>". `origin` finds an item's file row (default: the imported items' origins).
 */
export function describeEstimateDetail(
  detail: EstimateDetail,
  items: readonly unknown[],
  origin: (item: unknown) => ItemOrigin | undefined = originOf,
): string {
  const message = detail.message.replace(/\bitems\[(\d+)\]/g, (_, n: string) => itemName(items, Number(n)));
  const m = ITEM_PATH.exec(detail.path);
  if (!m) return detail.path ? `${detail.path}: ${message}` : message;
  const index = Number(m[1]);
  const from = origin(items[index]);
  const row = from ? ` — row ${from.row} of ${from.fileName}` : '';
  const field = m[2] ? `, ${m[2].replace(/_/g, ' ')}` : '';
  return `${itemName(items, index)}${row}${field}: ${message}`;
}

/**
 * What an invalid estimate lacks, said instead of the zero figures it answers (spec PackRequest:
 * `vehicles` and `items` each need at least one; vehicles added automatically are copies of a
 * listed one, Options.packing_mode): the sentence asking for a vehicle, else for items, else null.
 */
export function missingForEstimate(listedVehicles: number, items: number): string | null {
  if (listedVehicles === 0)
    return 'Choose a vehicle to see the estimate (vehicles added automatically are copies of a listed one).';
  if (items === 0) return 'Add items (import a file, choose templates or type them in the table) to see the estimate.';
  return null;
}
