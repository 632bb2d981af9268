/**
 * Resolves a PackRequest into the solver's PackModel: saved vehicles and templates merged with the
 * fields sent beside them, spec defaults applied, allowed orientations derived, the rules that
 * span fields or need the organization checked (spec "Resources and their fields" → Vehicle,
 * Item, Group, Options; Limits; Errors → detail codes). Lengths in cm, weights in kg, times in ms.
 *
 * This module runs the steps in order; each lives in its own module:
 * - coercion.ts: reading values that may not have passed the JSON Schema;
 * - vehicle-draft.ts, item-draft.ts: one entry from the request to its model;
 * - field-rules.ts: rules between the fields of one entry;
 * - request-rules.ts: rules across entries (ids, groups, limits); fit.ts: does_not_fit;
 * - orientations.ts, groups.ts, budget.ts, axle-model.ts, constraint-warnings.ts: the defaults
 *   and warnings the model is built with.
 */
import type { ErrorDetail, Warning } from '../diagnostics.js';
import { GROUP_ROUTINGS, PACKING_MODES, type PackRequest } from '../request.js';
import type { Orientation, PackModel } from '../plan.js';
import { enforceable } from './axle-model.js';
import { computeBudgetMs, maxVehicles, minimumVehicles } from './budget.js';
import { isFields, listOf, nonNegative, oneOf, wholeIn, type Fields } from './coercion.js';
import { optionWarnings, vehicleWarnings } from './constraint-warnings.js';
import { misfit, misfitMessage } from './fit.js';
import { groupOrders } from './groups.js';
import { draftItem, itemModelOf, type ItemDraft } from './item-draft.js';
import { readLoadedUnits } from './loaded-units.js';
import { allowedOrientations, lockedOrientation } from './orientations.js';
import type { ResolveContext, ResolveOutcome } from './resolve-context.js';
import { assignIds, duplicateIds, readGroups, requestLimits, unlistedGroups } from './request-rules.js';
import { readStackingRules } from './stacking-rules.js';
import { draftVehicle, vehicleModelOf, type VehicleDraft } from './vehicle-draft.js';

export type { SavedVehicle } from '../request.js';
export type { ResolveContext, ResolveOutcome } from './resolve-context.js';

/**
 * Resolves `request` for the organization described by `ctx`.
 *
 * Rules (spec sections in brackets):
 * - `vehicle_id` → saved vehicle, fields sent beside it override [Vehicle]; unknown id →
 *   `unknown_vehicle`. Without `vehicle_id`: type, length, width, height, max_weight `required`.
 *   Type outside ctx.allowedVehicleTypes → `type_not_allowed`. aux_deck true needs
 *   aux_deck_height (< height) and aux_deck_max_weight. Blocked areas inside length × width,
 *   axle positions ≤ length, as many axle_max_loads as axle_positions, cog_range_x ≤ length/2,
 *   cog_range_y ≤ width/2 (`out_of_range` / `invalid_value`).
 * - `template_id` → template fields, fields sent beside it override [Item]; unknown →
 *   `unknown_template`. height and weight `required`; length and width unless cylinder/drum,
 *   radius for cylinder/drum; nesting_height < height. Cylinders and drums become 2r × 2r × h.
 * - Ids: Vehicle.id defaults to vehicle_id, Item.id to template_id; duplicates →
 *   `duplicate_id`. A definition with neither gets `vehicle-<n>` / `item-<n>` (1-based position,
 *   suffixed `-2`, `-3`… if a sent id already uses it). Group names listed twice → `duplicate_id`.
 * - group_routing other than none: every item group must be listed → `unknown_group` [Group].
 * - Sum of item quantities > maxItemsPerRequest → `too_many_items` (path `items`); sum of vehicle
 *   quantities > maxVehiclesPerRequest → `too_many_vehicles` (path `vehicles`) [Limits].
 * - Every item must fit a listed vehicle in an allowed orientation and, unless
 *   allow_overweight, by unit weight → `does_not_fit` (path `items[i]`); skipped while some
 *   vehicle is itself unusable.
 * - Defaults: quantity 1, shape box, rotation all, stackable true, priority 0, hazardous false,
 *   max_stack_weight 0, name = saved name or id, label = id, packing_mode auto, max_stack_items 0.
 *   Orientations: see orientations.ts; lock_rotations keeps one (lockedOrientation).
 * - The safe stacking rules (our extension): see stacking-rules.ts; pallets_on_cartons false,
 *   heavy_on_light 2, max_slenderness 3 unless the options say otherwise.
 * - Groups: order from groups[].order or list position; unlisted groups follow in order of
 *   appearance; no group → Number.MAX_SAFE_INTEGER. Item colour falls back to its group's.
 * - maxVehicles, budgetMs, minVehicles: see budget.ts. `items` = total units.
 * - Vehicle.loaded (our extension, pinned units): see loaded-units.ts; checked once the rest is valid.
 *
 * Tolerates bodies that failed the JSON Schema (reads only well-typed values and skips checks
 * that depend on ill-typed ones), so check.ts can list schema and semantic problems together.
 * Never throws on such input.
 */
export function resolvePackRequest(request: PackRequest, ctx: ResolveContext): ResolveOutcome {
  const body: Fields = isFields(request) ? request : {};
  const details: ErrorDetail[] = [];
  const warnings: Warning[] = [];
  const o: Fields = isFields(body.options) ? body.options : {};
  const packingMode = oneOf(PACKING_MODES, o.packing_mode) ?? 'auto';
  const groupRouting = oneOf(GROUP_ROUTINGS, o.group_routing) ?? 'none';
  const allowOverweight = o.allow_overweight === true;
  const stacking = readStackingRules(o, details);

  const rawVehicles = listOf(body.vehicles);
  const vehicles = rawVehicles.map((raw, i) => draftVehicle(raw, i, ctx, details));
  const rawItems = listOf(body.items);
  const items = rawItems.map((raw, i) => draftItem(raw, i, ctx, details));
  const goodVehicles = vehicles.filter((v): v is VehicleDraft => v !== undefined);
  const goodItems = items.filter((d): d is ItemDraft => d !== undefined);

  duplicateIds('vehicle', 'vehicles', goodVehicles, details);
  duplicateIds('item', 'items', goodItems, details);
  const groups = readGroups(body.groups, details);
  unlistedGroups(goodItems, groups, groupRouting, details);
  const units = goodItems.reduce((n, d) => n + d.quantity, 0);
  const listedVehicles = goodVehicles.reduce((n, v) => n + v.quantity, 0);
  requestLimits(units, listedVehicles, ctx, details);

  const vehicleIds = assignIds(
    'vehicle',
    vehicles.map((v) => v?.givenId),
  );
  const itemIds = assignIds(
    'item',
    items.map((d) => d?.givenId),
  );
  const spaces = goodVehicles.flatMap((v) => (v.space ? [{ ...v.space, id: vehicleIds[v.index]! }] : []));
  // does_not_fit waits until every vehicle is usable: an unusable one might have held the item.
  const allVehiclesUsable = rawVehicles.length > 0 && spaces.length === rawVehicles.length;

  const orientationsOf = new Map<number, Orientation[]>();
  for (const d of goodItems) {
    if (!d.size) continue;
    let allowed = allowedOrientations(d.shape, d.rotation, d.size);
    if (o.lock_rotations === true && spaces.length > 0) allowed = [lockedOrientation(allowed, d.size, spaces)];
    orientationsOf.set(d.index, allowed);
    if (allVehiclesUsable && d.weight !== undefined) {
      const reason = misfit(d.size, d.weight, allowed, spaces, allowOverweight);
      if (reason)
        details.push({
          path: d.path,
          code: 'does_not_fit',
          message: misfitMessage({ ...d, size: d.size, weight: d.weight }, reason, spaces),
        });
    }
  }

  for (const v of goodVehicles) for (const w of vehicleWarnings(v.fields, v.path, ctx.axleAccess)) warnings.push(w);
  warnings.push(...optionWarnings(o, ctx.axleAccess, ctx.maxTimeLimitSeconds));

  if (details.length > 0) return { ok: false, details, warnings, incomplete: false };
  const unusable = [
    ...vehicles.flatMap((v, i) => (v?.space && v.type ? [] : [`vehicles[${i}]`])),
    ...items.flatMap((d, i) => (d?.size && d.weight !== undefined ? [] : [`items[${i}]`])),
  ];
  if (unusable.length > 0 || rawVehicles.length === 0 || rawItems.length === 0) {
    const missing = [...(rawVehicles.length === 0 ? ['vehicles'] : []), ...(rawItems.length === 0 ? ['items'] : [])];
    return {
      ok: false,
      details: [
        ...missing.map((path): ErrorDetail => ({
          path,
          code: 'out_of_range',
          message: 'must list at least one entry',
        })),
        ...unusable.map((path): ErrorDetail => ({
          path,
          code: 'invalid_value',
          message: 'is not a complete definition: a field is missing or of the wrong type',
        })),
      ],
      warnings,
      incomplete: true,
    };
  }

  const groupPlace = {
    orders: groupOrders(
      groups.listed,
      goodItems.map((d) => d.group),
    ),
    colours: new Map(groups.listed.map((g) => [g.name, g.color] as const)),
  };
  const vehicleModels = goodVehicles.map((v) => vehicleModelOf(v, vehicleIds[v.index]!, ctx.axleAccess));
  const itemModels = goodItems.map((d) => itemModelOf(d, itemIds[d.index]!, orientationsOf.get(d.index)!, groupPlace));

  // Pinned units (our extension, Vehicle.loaded): their entry rules, once items and vehicles are known.
  const loaded = readLoadedUnits(rawVehicles, vehicleModels, itemModels, details);
  if (details.length > 0) return { ok: false, details, warnings, incomplete: false };
  loaded.forEach((units, i) => {
    if (units.length > 0) vehicleModels[i]!.loaded = units;
  });

  if (ctx.axleAccess && o.enforce_axle === true && !vehicleModels.some((v) => v.axles && enforceable(v.axles))) {
    warnings.push({
      code: 'constraint_not_enforced',
      path: 'options.enforce_axle',
      message: 'no vehicle carries an axle maximum or a centre-of-gravity range: enforce_axle has nothing to enforce',
    });
  }
  const vehicleLimit = maxVehicles(packingMode, listedVehicles, ctx.maxVehiclesPerRequest);
  const minVehicles = minimumVehicles(
    {
      volume: itemModels.reduce((s, it) => s + it.length * it.width * it.height * it.quantity, 0),
      weight: itemModels.reduce((s, it) => s + it.weight * it.quantity, 0),
      largestVolume: vehicleModels.reduce((m, v) => Math.max(m, v.length * v.width * v.height), 0),
      largestPayload: vehicleModels.reduce((m, v) => Math.max(m, v.maxWeight), 0),
    },
    allowOverweight,
    vehicleLimit,
  );
  const model: PackModel = {
    vehicles: vehicleModels,
    items: itemModels,
    packingMode,
    maxVehicles: vehicleLimit,
    allowOverweight,
    maxStackItems: wholeIn(o.max_stack_items, 0, Number.MAX_SAFE_INTEGER) ?? 0,
    maxStackDensity: nonNegative(o.max_stack_density_kg_m2) ?? 0,
    enforceAxle: ctx.axleAccess && o.enforce_axle === true,
    groupRouting,
    stacking,
    budgetMs: computeBudgetMs(nonNegative(o.time_limit) ?? 0, units, ctx.maxTimeLimitSeconds),
    budgetMode: (nonNegative(o.time_limit) ?? 0) > 0 ? 'explicit' : 'automatic',
    seed: wholeIn(o.seed, 1, 2_147_483_647) ?? ctx.seed,
  };
  const workLimit = wholeIn(o.work_limit, 1, 1_000_000_000);
  if (workLimit !== undefined) model.workLimit = workLimit;
  return { ok: true, model, warnings, items: units, minVehicles };
}
