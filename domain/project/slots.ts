/**
 * Ids of a project's vehicle slots (`pv_…`) and items (`item_…`) when a client writes the lists
 * (POST, or PATCH which replaces a list whole): an entry sent with the id of an existing entry
 * keeps it; an entry without `id` gets a new one; any other id, or one id twice, is refused.
 */
import type { ErrorDetail } from '../pack/diagnostics.js';

/**
 * Gives every entry of `list` (at detail path `section`, e.g. `items`) an id. `existing`: the
 * ids the project has now; `newId()` makes a fresh one. Returns the entries with ids, or the
 * problems (`invalid_value` at `items[3].id`, `duplicate_id` for a repeat).
 */
export function assignIds<T extends { id?: string }>(
  section: string,
  list: T[],
  existing: ReadonlySet<string>,
  newId: () => string,
): { ok: true; entries: (T & { id: string })[] } | { ok: false; details: ErrorDetail[] } {
  const details: ErrorDetail[] = [];
  const seen = new Map<string, number>();
  const entries = list.map((entry, i) => {
    const sent = entry.id;
    if (sent === undefined) return { ...entry, id: newId() };
    if (!existing.has(sent)) {
      details.push({
        path: `${section}[${i}].id`,
        code: 'invalid_value',
        message: `"${sent}" is not an id of this project's ${section}; leave id out for a new entry`,
      });
    } else if (seen.has(sent)) {
      details.push({
        path: `${section}[${i}].id`,
        code: 'duplicate_id',
        message: `"${sent}" is already used by ${section}[${seen.get(sent)}]`,
      });
    }
    seen.set(sent, seen.get(sent) ?? i);
    return { ...entry, id: sent };
  });
  return details.length > 0 ? { ok: false, details } : { ok: true, entries };
}
