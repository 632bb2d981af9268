/**
 * Rules across the entries of one PackRequest (spec PackRequest, Group, Limits; Errors → detail
 * codes `duplicate_id`, `unknown_group`, `too_many_items`, `too_many_vehicles`): the ids of
 * vehicles and items, the listed groups, and the organization's limits on the request's size.
 * Each rule pushes its problems onto `details`.
 */
import type { ErrorDetail } from '../diagnostics.js';
import type { GroupRouting } from '../request.js';
import { colour, isFields, listOf, text, wholeIn } from './coercion.js';
import type { ListedGroup } from './groups.js';
import type { ResolveContext } from './resolve-context.js';

/** What the id rules read of a vehicle or item draft (vehicle-draft.ts, item-draft.ts). */
interface IdEntry {
  index: number;
  path: string;
  givenId: string | undefined;
  defaultedFrom: string | null;
}

/**
 * Ids as given (sent, or defaulted from vehicle_id / template_id), else generated as
 * `<prefix>-<n>` (1-based position, suffixed -2, -3… if that id is taken). One per entry of
 * `given`, undefined entries included.
 */
export function assignIds(prefix: string, given: readonly (string | undefined)[]): string[] {
  const taken = new Set(given.filter((g): g is string => g !== undefined));
  return given.map((g, i) => {
    if (g !== undefined) return g;
    let id = `${prefix}-${i + 1}`;
    for (let n = 2; taken.has(id); n++) id = `${prefix}-${i + 1}-${n}`;
    taken.add(id);
    return id;
  });
}

/**
 * `duplicate_id` for every entry whose given id an earlier entry of `section` already uses,
 * at the path of the field the id came from (`id`, `vehicle_id`, `template_id`).
 */
export function duplicateIds(
  kind: 'vehicle' | 'item',
  section: string,
  entries: readonly IdEntry[],
  details: ErrorDetail[],
): void {
  const first = new Map<string, number>();
  for (const e of entries) {
    if (e.givenId === undefined) continue;
    const prev = first.get(e.givenId);
    if (prev === undefined) {
      first.set(e.givenId, e.index);
      continue;
    }
    const how = e.defaultedFrom ? ` (defaulted from ${e.defaultedFrom}; give each ${kind} its own id)` : '';
    details.push({
      path: `${e.path}.${e.defaultedFrom ?? 'id'}`,
      code: 'duplicate_id',
      message: `${kind} id "${e.givenId}"${how} is already used by ${section}[${prev}]`,
    });
  }
}

/** PackRequest.groups as read: the well-formed entries and where each name is first listed. */
export interface GroupList {
  listed: ListedGroup[];
  /** Name → index in PackRequest.groups of its first listing. */
  listedAt: Map<string, number>;
}

/**
 * Reads PackRequest.groups: entries without a name are skipped; a name listed twice →
 * `duplicate_id` at the second listing. `order` outside ±10⁹ and malformed colours count as
 * absent.
 */
export function readGroups(raw: unknown, details: ErrorDetail[]): GroupList {
  const listed: ListedGroup[] = [];
  const listedAt = new Map<string, number>();
  listOf(raw).forEach((g, j) => {
    const name = isFields(g) ? text(g.name) : undefined;
    if (!isFields(g) || name === undefined) return;
    const prev = listedAt.get(name);
    if (prev !== undefined) {
      details.push({
        path: `groups[${j}].name`,
        code: 'duplicate_id',
        message: `group "${name}" is already listed at groups[${prev}]`,
      });
    } else {
      listedAt.set(name, j);
    }
    const entry: ListedGroup = { name };
    const order = wholeIn(g.order, -1_000_000_000, 1_000_000_000);
    if (order !== undefined) entry.order = order;
    const c = colour(g.color);
    if (c !== undefined) entry.color = c;
    listed.push(entry);
  });
  return { listed, listedAt };
}

/** Spec Options.group_routing: other than none, every group an item names must be listed (`unknown_group`). */
export function unlistedGroups(
  items: readonly { path: string; group: string | null }[],
  groups: GroupList,
  routing: GroupRouting,
  details: ErrorDetail[],
): void {
  if (routing === 'none') return;
  for (const d of items) {
    if (d.group !== null && !groups.listedAt.has(d.group)) {
      details.push({
        path: `${d.path}.group`,
        code: 'unknown_group',
        message: `group "${d.group}" is not listed in groups; with group_routing "${routing}" every group an item names must be listed`,
      });
    }
  }
}

/**
 * Spec Limits: item units (sum of item quantities) up to maxItemsPerRequest → `too_many_items`
 * (path `items`); listed vehicles (sum of vehicle quantities) up to maxVehiclesPerRequest →
 * `too_many_vehicles` (path `vehicles`).
 */
export function requestLimits(
  units: number,
  listedVehicles: number,
  ctx: Pick<ResolveContext, 'maxItemsPerRequest' | 'maxVehiclesPerRequest'>,
  details: ErrorDetail[],
): void {
  if (units > ctx.maxItemsPerRequest) {
    details.push({
      path: 'items',
      code: 'too_many_items',
      message: `the request has ${units} item units (sum of quantity); the limit is ${ctx.maxItemsPerRequest} per job`,
    });
  }
  if (listedVehicles > ctx.maxVehiclesPerRequest) {
    details.push({
      path: 'vehicles',
      code: 'too_many_vehicles',
      message: `the request lists ${listedVehicles} vehicles (sum of quantity); the limit is ${ctx.maxVehiclesPerRequest} per job, auto-added vehicles included`,
    });
  }
}
