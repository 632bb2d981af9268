/**
 * The playground's full lists of saved vehicles and cargo templates (spec GET /v1/vehicles,
 * /v1/templates: pages of at most 100 with `next_cursor`, empty on the last page; presets listed
 * after the organization's own vehicles) and the search that narrows them in the browser.
 */
import { call } from '../api.js';

/** A saved vehicle or template as listed (only the fields the pickers show; sizes in cm, weights in kg). */
export interface SavedRecord {
  id: string;
  name?: string;
  label?: string;
  type?: string;
  preset?: boolean;
  shape?: string;
  length?: number;
  width?: number;
  height?: number;
  radius?: number;
  max_weight?: number;
  weight?: number;
}

/** Most pages read (100 records each): a safety stop, far above any plan's cap. */
const MAX_PAGES = 100;

/**
 * Every record of `path` (`/v1/vehicles` or `/v1/templates`), page after page in the service's
 * order. Throws the call's ApiFailure; stops early (resolving what it has) when `signal` aborts.
 */
export async function readAllRecords(path: string, signal?: AbortSignal): Promise<SavedRecord[]> {
  const all: SavedRecord[] = [];
  let cursor = '';
  for (let pageNo = 0; pageNo < MAX_PAGES && !signal?.aborted; pageNo += 1) {
    const query = new URLSearchParams({ limit: '100', ...(cursor ? { cursor } : {}) });
    const page = await call<{ data: SavedRecord[]; next_cursor?: string }>('GET', `${path}?${query}`);
    all.push(...page.data);
    cursor = page.next_cursor ?? '';
    if (cursor === '') break;
  }
  return all;
}

/**
 * True when `record` matches the search `q`: every word of `q` (case-insensitive) is found in its
 * name, label, id, type or shape. An empty search matches everything.
 */
export function matchesSearch(record: SavedRecord, q: string): boolean {
  const words = q.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const haystack = [record.name, record.label, record.id, record.type, record.shape]
    .filter((s): s is string => typeof s === 'string')
    .join(' ')
    .toLowerCase();
  return words.every((w) => haystack.includes(w));
}
