/**
 * The playground's request as one JSON object that every control edits (spec PackRequest): the
 * item table, the vehicle and template pickers, the reference and the automatic-vehicles option
 * each read their part of the request and return a new request with only that part changed;
 * fields no control shows (groups, other options, vehicle overrides, unknown item fields) are
 * carried over untouched. The JSON editor shows the same object, so both stay in step.
 */
import { parseRequestText, type Chosen } from './request-builder.js';
import type { TableItem } from './item-cells.js';

/** A request as the JSON editor holds it: an object with (normally) `vehicles` and `items`. */
export type RequestObject = Readonly<Record<string, unknown>>;

/** The request a new playground starts with. */
export const EMPTY_REQUEST: RequestObject = { vehicles: [], items: [] };

/** The request as the JSON editor writes it (2-space indented). */
export const requestText = (request: RequestObject): string => JSON.stringify(request, null, 2);

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * The editor's text read for the table and the pickers: the request object, or why the table
 * cannot show it (not JSON, not an object, `items` or `vehicles` not a list of objects). A missing
 * `items` or `vehicles` reads as an empty list.
 */
export function readRequest(text: string): { request: RequestObject } | { problem: string } {
  const parsed = parseRequestText(text);
  if ('problem' in parsed) return parsed;
  const request = parsed.request as Record<string, unknown>;
  for (const list of ['items', 'vehicles'] as const) {
    const value = request[list];
    if (value === undefined) continue;
    if (!Array.isArray(value)) return { problem: `"${list}" must be a list` };
    const bad = value.findIndex((entry) => !isObject(entry));
    if (bad >= 0) return { problem: `${list}[${bad}] must be an object` };
  }
  return { request };
}

/** The request's items (an empty list when it has none). */
export const itemsOf = (request: RequestObject): TableItem[] =>
  Array.isArray(request['items']) ? (request['items'] as TableItem[]) : [];

/** The request's vehicles (an empty list when it has none). */
export const vehiclesOf = (request: RequestObject): TableItem[] =>
  Array.isArray(request['vehicles']) ? (request['vehicles'] as TableItem[]) : [];

/** The request with `items` in place of its items; every other field as it was. */
export const withItems = (request: RequestObject, items: readonly TableItem[]): RequestObject => ({
  ...request,
  items: [...items],
});

/**
 * How a file's items join a request that already has items (web app: item files): `replace` its
 * items, or `add` the file's after them.
 */
export type ImportJoin = 'replace' | 'add';

/** The request with `imported` items in place of its items (`replace`) or after them (`add`). */
export const withImportedItems = (
  request: RequestObject,
  imported: readonly TableItem[],
  join: ImportJoin,
): RequestObject => withItems(request, join === 'replace' ? imported : [...itemsOf(request), ...imported]);

/** A request entry's quantity: its `quantity` when a number, else 1 (spec default). */
const quantityOf = (entry: TableItem): number => (typeof entry['quantity'] === 'number' ? entry['quantity'] : 1);

/** Entries of `list` naming a saved record in `field` (`vehicle_id` or `template_id`), first one per id, with their quantities. */
function chosenIn(list: readonly TableItem[], field: string): Chosen[] {
  const out: Chosen[] = [];
  for (const entry of list) {
    const id = entry[field];
    if (typeof id === 'string' && !out.some((c) => c.id === id)) out.push({ id, quantity: quantityOf(entry) });
  }
  return out;
}

/**
 * `list` with the record `id` (named in `field`) at `quantity`: the first entry naming it gets the
 * quantity (its other fields kept), or a new `{field: id, quantity}` goes at the end; a quantity
 * below 1 removes every entry naming it.
 */
function withChosen(list: readonly TableItem[], field: string, id: string, quantity: number): TableItem[] {
  if (quantity < 1) return list.filter((entry) => entry[field] !== id);
  const at = list.findIndex((entry) => entry[field] === id);
  if (at < 0) return [...list, { [field]: id, quantity }];
  return list.map((entry, i) => (i === at ? { ...entry, quantity } : entry));
}

/** The saved vehicles the request names (`vehicle_id`) with their quantities. */
export const chosenVehicles = (request: RequestObject): Chosen[] => chosenIn(vehiclesOf(request), 'vehicle_id');

/** The cargo templates the request's items name (`template_id`) with their quantities. */
export const chosenTemplates = (request: RequestObject): Chosen[] => chosenIn(itemsOf(request), 'template_id');

/** The request with saved vehicle `id` at `quantity` (0 leaves it out). */
export const withVehicleQuantity = (request: RequestObject, id: string, quantity: number): RequestObject => ({
  ...request,
  vehicles: withChosen(vehiclesOf(request), 'vehicle_id', id, quantity),
});

/** The request with template `id` at `quantity` (0 leaves its items out). */
export const withTemplateQuantity = (request: RequestObject, id: string, quantity: number): RequestObject => ({
  ...request,
  items: withChosen(itemsOf(request), 'template_id', id, quantity),
});

/** The request's reference, `''` when it has none. */
export const referenceOf = (request: RequestObject): string =>
  typeof request['reference'] === 'string' ? request['reference'] : '';

/** The request with `reference` (an empty one leaves the field out). */
export function withReference(request: RequestObject, reference: string): RequestObject {
  const { reference: _old, ...rest } = request;
  if (reference === '') return rest;
  return 'reference' in request ? { ...request, reference } : { reference, ...rest };
}

/** Spec Options.packing_mode: `auto` (default: vehicles are added when the listed ones are full) or `fleet_only`. */
export type PackingMode = 'auto' | 'fleet_only';

/** The request's packing mode (`auto` unless `options.packing_mode` is `fleet_only`). */
export const packingModeOf = (request: RequestObject): PackingMode => {
  const options = request['options'];
  return isObject(options) && options['packing_mode'] === 'fleet_only' ? 'fleet_only' : 'auto';
};

/**
 * The request with `options.packing_mode` set to `mode`; `auto` (the default) removes the field,
 * and `options` too when nothing else is in it. Other options are kept.
 */
export function withPackingMode(request: RequestObject, mode: PackingMode): RequestObject {
  const options = isObject(request['options']) ? request['options'] : {};
  const { packing_mode: _old, ...others } = options;
  const next = mode === 'fleet_only' ? { ...others, packing_mode: mode } : others;
  if (Object.keys(next).length > 0) return { ...request, options: next };
  const { options: _none, ...rest } = request;
  return rest;
}

/** Vehicles the request lists: the sum of its vehicles' quantities (default 1 each). */
export const listedVehicleCount = (request: RequestObject): number =>
  vehiclesOf(request).reduce((n, v) => n + quantityOf(v), 0);

/**
 * The draft handed to the playground in the router's location state (`{draft: <PackRequest>}`,
 * the job page's "Duplicate into the playground"): the draft when it is an object, else null.
 */
export function draftOf(state: unknown): RequestObject | null {
  const draft = isObject(state) ? state['draft'] : undefined;
  return isObject(draft) ? draft : null;
}
