/**
 * The organization facts validation and resolution need (spec Limits, saved data): limits,
 * axle access, and lookups of presets, the organization's own vehicles and its templates.
 * Resolution is synchronous, so the saved records a body names are fetched first.
 */
import { randomInt } from 'node:crypto';
import type { ItemInput, SavedVehicle } from '../../../domain/pack/request.js';
import { findPreset } from '../../../domain/vehicle/presets.js';
import { TEMPLATES, type TemplateDocument } from '../../../projections/templates/projection.js';
import { VEHICLES, type VehicleDocument } from '../../../projections/vehicles/projection.js';
import type { CheckContext } from '../pack-request/check.js';
import type { Caller } from '../auth/auth.js';
import type { HttpSettings } from '../context.js';
import type { UseCasePorts } from '../../../application/ports.js';

const isFields = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Distinct string values of `key` in the objects of `body[list]` that start with `prefix` (the body may be ill-formed). */
function namedIds(
  body: unknown,
  list: 'vehicles' | 'items',
  key: 'vehicle_id' | 'template_id',
  prefix: string,
): string[] {
  if (!isFields(body) || !Array.isArray(body[list])) return [];
  const ids = new Set<string>();
  for (const entry of body[list] as unknown[]) {
    const id = isFields(entry) ? entry[key] : undefined;
    if (typeof id === 'string' && id.startsWith(prefix)) ids.add(id);
  }
  return [...ids];
}

/**
 * Context for checking `body` on behalf of `caller`. Fetches exactly the `veh_…` vehicle ids
 * and `tpl_…` template ids the body names from the read models; only live records of the
 * caller's organization resolve (another organization's ids answer unknown_vehicle /
 * unknown_template, like absent ones). Presets resolve by slug.
 */
export async function checkContextFor(
  ctx: Pick<UseCasePorts, 'reads'> & Pick<HttpSettings, 'seed'>,
  caller: Caller,
  body: unknown,
): Promise<CheckContext> {
  const limits = caller.org.limits;
  const vehicleDocs = ctx.reads.collection<VehicleDocument>(VEHICLES);
  const templateDocs = ctx.reads.collection<TemplateDocument>(TEMPLATES);
  const own = <D extends { orgId: string; deleted: boolean }>(doc: D | undefined): D | undefined =>
    doc && doc.orgId === caller.orgId && !doc.deleted ? doc : undefined;

  const vehicles = new Map<string, SavedVehicle>();
  const templates = new Map<string, ItemInput>();
  await Promise.all([
    ...namedIds(body, 'vehicles', 'vehicle_id', 'veh_').map(async (id) => {
      const doc = own(await vehicleDocs.get(id));
      if (doc) vehicles.set(id, { id, ...doc.fields });
    }),
    ...namedIds(body, 'items', 'template_id', 'tpl_').map(async (id) => {
      const doc = own(await templateDocs.get(id));
      if (doc) templates.set(id, doc.fields);
    }),
  ]);
  return {
    allowedVehicleTypes: limits.allowedVehicleTypes,
    maxItemsPerRequest: limits.maxItemsPerRequest,
    maxVehiclesPerRequest: limits.maxVehiclesPerRequest,
    maxTimeLimitSeconds: limits.maxTimeLimitSeconds,
    axleAccess: caller.org.axleAccess,
    findVehicle: (id) => findPreset(id) ?? vehicles.get(id),
    findTemplate: (id) => templates.get(id),
    seed: ctx.seed ? ctx.seed() : randomInt(1, 2 ** 31 - 1),
  };
}
