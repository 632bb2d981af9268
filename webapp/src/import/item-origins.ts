/**
 * Where an imported item came from (web app: item files): the file's name and the spreadsheet
 * row of the item (header = 1), kept per item object so that problems the estimate names by JSON
 * path (`items[25].id`) can name the file row too. Weakly held: an item edited in the table keeps
 * its origin (carryOrigin: the row is still where it came from, and the planner looks for it
 * there); an item re-read from the JSON editor is a new object and has none; reordering or
 * deleting other items keeps the origins of the rest.
 */

/** The file and spreadsheet row (header = 1) an item was imported from. */
export interface ItemOrigin {
  fileName: string;
  row: number;
}

const ORIGINS = new WeakMap<object, ItemOrigin>();

/** Remembers that `items[i]` came from row `rows[i]` of `fileName`; returns the same items. */
export function rememberOrigins<T extends object>(items: readonly T[], rows: readonly number[], fileName: string): T[] {
  items.forEach((item, i) => {
    const row = rows[i];
    if (row !== undefined) ORIGINS.set(item, { fileName, row });
  });
  return [...items];
}

/** The file row `item` was imported from, or undefined (typed, edited or not imported). */
export const originOf = (item: unknown): ItemOrigin | undefined =>
  item !== null && typeof item === 'object' ? ORIGINS.get(item) : undefined;

/** Gives `next`, an edit of `item` (a table cell changed), the file row `item` came from, if any; returns `next`. */
export function carryOrigin<T extends object>(item: unknown, next: T): T {
  const origin = originOf(item);
  if (origin) ORIGINS.set(next, origin);
  return next;
}
