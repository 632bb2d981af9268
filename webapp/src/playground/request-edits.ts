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

/**
 * Whether `entry` is a pick of the cargo templates picker (only `template_id` and `quantity`): the
 * picker owns it, so an import neither counts nor replaces it.
 */
export const isTemplatePick = (entry: TableItem): boolean =>
  typeof entry['template_id'] === 'string' && Object.keys(entry).every((k) => k === 'template_id' || k === 'quantity');

/** The items an import would replace: every item but the template picks. */
export const replaceableItemCount = (request: RequestObject): number =>
  itemsOf(request).filter((i) => !isTemplatePick(i)).length;

/**
 * The request with `imported` items after its items (`add`), or in place of its items but the
 * template picks (`replace`; the picks stay first, as the picker keeps them).
 */
export const withImportedItems = (
  request: RequestObject,
  imported: readonly TableItem[],
  join: ImportJoin,
): RequestObject => {
  const kept = join === 'replace' ? itemsOf(request).filter(isTemplatePick) : itemsOf(request);
  return withItems(request, [...kept, ...imported]);
};

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

/**
 * Spec Options.group_routing: `none` (default; groups are informational), `wall` (each group its
 * own section), `routing` (groups load in order, a later one on or beside an earlier one, never
 * below), `no_stack` (groups load in order side by side, never on top of each other).
 */
export type GroupRouting = 'none' | 'wall' | 'routing' | 'no_stack';

/** Every GroupRouting, in the order the stops control offers them. */
export const GROUP_ROUTINGS: readonly GroupRouting[] = ['none', 'routing', 'no_stack', 'wall'];

/** The request's group routing (`none` unless `options.group_routing` names another). */
export function groupRoutingOf(request: RequestObject): GroupRouting {
  const options = request['options'];
  const mode = isObject(options) ? options['group_routing'] : undefined;
  return GROUP_ROUTINGS.find((m) => m === mode) ?? 'none';
}

/** A stop of a multi-drop load: a group an item names (spec Group), with its colour when the request gives one. */
export interface Stop {
  name: string;
  color?: string;
}

/** The request's `groups` entries that are objects with a string `name`. */
function listedGroups(request: RequestObject): Record<string, unknown>[] {
  const groups = request['groups'];
  return Array.isArray(groups)
    ? groups.filter((g): g is Record<string, unknown> => isObject(g) && typeof g['name'] === 'string')
    : [];
}

/**
 * The stops of the request in loading order (spec Group.order: lower loads first, deepest; it
 * defaults to the list position): the distinct groups its items name, those listed in `groups`
 * first by order, then the others in order of appearance (as the service creates them).
 */
export function stopsOf(request: RequestObject): Stop[] {
  const named: string[] = [];
  for (const item of itemsOf(request)) {
    const g = item['group'];
    if (typeof g === 'string' && g !== '' && !named.includes(g)) named.push(g);
  }
  const listed = listedGroups(request)
    .map((g, i) => ({ g, order: typeof g['order'] === 'number' ? g['order'] : i + 1, i }))
    .sort((a, b) => a.order - b.order || a.i - b.i)
    .map(({ g }) => g)
    .filter((g) => named.includes(g['name'] as string));
  const stops: Stop[] = listed.map((g) => ({
    name: g['name'] as string,
    ...(typeof g['color'] === 'string' ? { color: g['color'] } : {}),
  }));
  for (const name of named) if (!stops.some((s) => s.name === name)) stops.push({ name });
  return stops.filter((s, i) => stops.findIndex((o) => o.name === s.name) === i);
}

/**
 * The request with `groups` listing the stops `names` in loading order, each with `order` 1, 2, …
 * (its other fields, such as `color`, kept); groups listed but not in `names` follow with the next
 * orders. Spec Group: a group every item names must be listed once routing is not `none`.
 */
export function withStopOrder(request: RequestObject, names: readonly string[]): RequestObject {
  const listed = listedGroups(request);
  const entryOf = (name: string) => listed.find((g) => g['name'] === name) ?? { name };
  const rest = listed.filter((g) => !names.includes(g['name'] as string));
  const groups = [...names.map(entryOf), ...rest].map((g, i) => ({ ...g, order: i + 1 }));
  return { ...request, groups };
}

/**
 * The request with `options.group_routing` at `mode` (`none` removes the field, and `options`
 * when nothing else is in it); any other mode also lists every stop in `groups` (spec PackRequest
 * `groups`: required for every group an item names when routing is not `none`).
 */
export function withGroupRouting(request: RequestObject, mode: GroupRouting): RequestObject {
  const options = isObject(request['options']) ? request['options'] : {};
  const { group_routing: _old, ...others } = options;
  if (mode === 'none') {
    if (Object.keys(others).length > 0) return { ...request, options: others };
    const { options: _none, ...rest } = request;
    return rest;
  }
  const routed = { ...request, options: { ...others, group_routing: mode } };
  return withStopOrder(
    routed,
    stopsOf(routed).map((s) => s.name),
  );
}

/**
 * The stops in delivery order: the first delivered is the last loaded, at the door (spec Group:
 * order 1 loads deepest, at the front wall), so this is stopsOf reversed.
 */
export const deliveryStopsOf = (request: RequestObject): Stop[] => [...stopsOf(request)].reverse();

/** The request with its stops delivered in the order `names` (first delivered: highest `order`, at the door). */
export const withDeliveryOrder = (request: RequestObject, names: readonly string[]): RequestObject =>
  withStopOrder(request, [...names].reverse());
