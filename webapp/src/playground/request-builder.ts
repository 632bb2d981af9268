/**
 * The playground's request: the JSON editor's reading (the request the pickers, the item table
 * and the editor share is edited in request-edits.ts), and the project body of "Save as project"
 * (spec POST /v1/projects: vehicle slots name a saved vehicle, items in the pack item shape; the
 * service gives the ids).
 */
import type { PackItem, PackRequest, PackVehicle } from './pack-request.js';

/** A saved record chosen with a quantity: a vehicle (`veh_…` or a preset slug) or a template (`tpl_…`). */
export interface Chosen {
  id: string;
  quantity: number;
}

/** The request written in the JSON editor, or why it cannot be sent (not JSON, not an object). */
export function parseRequestText(text: string): { request: unknown } | { problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { problem: `the request is not valid JSON: ${err instanceof Error ? err.message : String(err)}` };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return { problem: 'the request must be a JSON object with vehicles and items' };
  return { request: value };
}

/** Body of POST /v1/projects (spec Endpoints; api/http/projects/schema.ts ProjectInput). */
export interface ProjectInput {
  name: string;
  vehicles: PackVehicle[];
  items: PackItem[];
  groups?: unknown[];
  options?: Record<string, unknown>;
}

/**
 * The project of a request, named `name`: its vehicles as slots and its items, groups and options;
 * the request's own `id`s are dropped (a project's ids are given by the service, results name
 * them `pv_…`/`item_…`). Throws Error when a vehicle has no `vehicle_id` (a project slot names a
 * saved vehicle: save that vehicle first) or the request is not an object with vehicles and items.
 */
export function projectOf(request: unknown, name: string): ProjectInput {
  const r = request as Partial<PackRequest> | null;
  if (!r || !Array.isArray(r.vehicles) || !Array.isArray(r.items))
    throw new Error('the request has no vehicles and items to save');
  const vehicles = r.vehicles.map((v, i) => {
    if (typeof v?.vehicle_id !== 'string')
      throw new Error(
        `vehicles[${i}] is not a saved vehicle: a project slot names a saved vehicle (save it on the Vehicles page first)`,
      );
    const { id: _id, ...slot } = v as PackVehicle & { id?: string };
    return slot;
  });
  const items = r.items.map((item) => {
    const { id: _id, ...rest } = item;
    return rest;
  });
  return {
    name,
    vehicles,
    items,
    ...(Array.isArray(r.groups) ? { groups: r.groups } : {}),
    ...(r.options && typeof r.options === 'object' ? { options: r.options } : {}),
  };
}
