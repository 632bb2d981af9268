/**
 * Resolves a PackRequest into the solver's PackModel: saved vehicles and templates merged with the
 * fields sent beside them, spec defaults applied, allowed orientations derived, the rules that
 * span fields or need the organization checked (spec "Resources and their fields" → Vehicle,
 * Item, Group, Options; Limits; Errors → detail codes). Lengths in cm, weights in kg, times in ms.
 */
import type { ErrorDetail, Warning } from '../../domain/pack/diagnostics.js';
import type { SavedVehicle } from '../../domain/pack/request.js';
import {
  GROUP_ROUTINGS,
  ITEM_SHAPES,
  PACKING_MODES,
  ROTATIONS,
  VEHICLE_TYPES,
  type ItemInput,
  type ItemShape,
  type PackRequest,
  type Rect,
  type RotationRule,
  type VehicleInput,
  type VehicleType,
} from '../../domain/pack/request.js';
import type { ItemModel, Orientation, PackModel, VehicleModel } from '../../domain/pack/plan.js';
import { allowedOrientations, lockedOrientation, type BoxSize } from './orientations.js';
import { misfit, type VehicleSpace } from './fit.js';
import { computeBudgetMs, maxVehicles, minimumVehicles } from './budget.js';
import { groupOrders, NO_GROUP_ORDER, type ListedGroup } from './groups.js';
import { optionWarnings, vehicleWarnings } from './constraint-warnings.js';
import { axleModelOf, enforceable } from './axle-model.js';

export type { SavedVehicle };

/** What resolution needs from the organization (spec Limits; GET /v1/limits values). */
export interface ResolveContext {
  /** Vehicle types enabled for the organization; spec default truck, trailer, container, pallet. */
  allowedVehicleTypes: readonly VehicleType[];
  /** Item units per job (sum of quantity); spec default 2000. */
  maxItemsPerRequest: number;
  /** Vehicles per job including auto-added ones; spec default 20. */
  maxVehiclesPerRequest: number;
  /** Compute budget per job, s; spec default 90. */
  maxTimeLimitSeconds: number;
  /** Axle fields and enforce_axle enabled for the organization. */
  axleAccess: boolean;
  /** A preset or one of the organization's vehicles, by id. */
  findVehicle(id: string): SavedVehicle | undefined;
  /** One of the organization's cargo templates (tpl_…), by id. */
  findTemplate(id: string): ItemInput | undefined;
  /** Search seed copied into the model. */
  seed: number;
}

/**
 * A resolved request, or every problem found. Warnings are collected either way. `incomplete`:
 * the only problems are definitions too ill-typed to resolve (an entry that is not an object, a
 * dimension that is not a positive number…), which the JSON Schema reports more precisely; the
 * details then hold one generic `invalid_value` per such definition.
 */
export type ResolveOutcome =
  | { ok: true; model: PackModel; warnings: Warning[]; items: number; minVehicles: number }
  | { ok: false; details: ErrorDetail[]; warnings: Warning[]; incomplete: boolean };

type Fields = Record<string, unknown>;

const VEHICLE_FIELDS = [
  'type', 'length', 'width', 'height', 'max_weight', 'quantity', 'floor_load_capacity', 'aux_deck',
  'aux_deck_height', 'aux_deck_max_weight', 'blocked_areas', 'axle_positions', 'axle_max_loads',
  'cog_range_x', 'cog_range_y', 'tractor_weight', 'empty_trailer_weight', 'front_axle_to_middle_axle',
  'front_axle_to_tractor_cog', 'front_axle_to_kingpin', 'kingpin_to_rear_axle', 'trailer_cog_to_rear_axle',
  'trailer_start_to_kingpin', 'max_middle_axle_weight', 'max_rear_axle_weight',
] as const;

const ITEM_FIELDS = [
  'label', 'shape', 'length', 'width', 'height', 'radius', 'weight', 'quantity', 'stackable',
  'max_stack_weight', 'rotation', 'hazardous', 'priority', 'group', 'color', 'nesting_height',
] as const;

const COLOR = /^#[0-9a-fA-F]{6}$/;
const EPS = 1e-9;

// The body may not have passed the schema (check.ts resolves it anyway to list every problem in
// one answer), so values are read through these guards and ill-typed ones count as absent for
// the checks that depend on them; the schema reports them.
const isFields = (v: unknown): v is Fields => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 ? v : undefined);
const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const positive = (v: unknown): number | undefined => (finite(v) && v > 0 ? v : undefined);
const nonNegative = (v: unknown): number | undefined => (finite(v) && v >= 0 ? v : undefined);
const wholeIn = (v: unknown, min: number, max: number): number | undefined =>
  Number.isInteger(v) && (v as number) >= min && (v as number) <= max ? (v as number) : undefined;
const oneOf = <T extends string>(list: readonly T[], v: unknown): T | undefined =>
  (list as readonly unknown[]).includes(v) ? (v as T) : undefined;
const listOf = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** Copies the known fields of `saved` and then the ones the request sends (request wins). */
function merge(keys: readonly string[], saved: object | undefined, sent: Fields): Fields {
  const out: Fields = {};
  for (const k of keys) {
    const v = sent[k] !== undefined ? sent[k] : saved ? (saved as Fields)[k] : undefined;
    if (v !== undefined) out[k] = v;
  }
  return out;
}

const cm = (n: number): string => `${Number(n.toFixed(3))}`;
const dims = (s: BoxSize): string => `${cm(s.length)} × ${cm(s.width)} × ${cm(s.height)} cm`;

/** Ids defaulted from vehicle_id/template_id or explicit, else generated as `<prefix>-<n>` (1-based position, suffixed -2, -3… if that id is taken). */
function assignIds(prefix: string, given: readonly (string | undefined)[]): string[] {
  const taken = new Set(given.filter((g): g is string => g !== undefined));
  return given.map((g, i) => {
    if (g !== undefined) return g;
    let id = `${prefix}-${i + 1}`;
    for (let n = 2; taken.has(id); n++) id = `${prefix}-${i + 1}-${n}`;
    taken.add(id);
    return id;
  });
}

function duplicateIds(
  kind: 'vehicle' | 'item',
  section: string,
  entries: readonly { index: number; id: string | undefined; path: string; defaulted: string | null }[],
): ErrorDetail[] {
  const first = new Map<string, number>();
  const out: ErrorDetail[] = [];
  for (const e of entries) {
    if (e.id === undefined) continue;
    const prev = first.get(e.id);
    if (prev === undefined) {
      first.set(e.id, e.index);
      continue;
    }
    const how = e.defaulted ? ` (defaulted from ${e.defaulted}; give each ${kind} its own id)` : '';
    out.push({ path: e.path, code: 'duplicate_id', message: `${kind} id "${e.id}"${how} is already used by ${section}[${prev}]` });
  }
  return out;
}

interface VehicleDraft {
  index: number;
  path: string;
  fields: Fields;
  givenId: string | undefined;
  defaultedFrom: string | null;
  name: string | undefined;
  savedName: string | undefined;
  type: VehicleType | undefined;
  space: VehicleSpace | undefined;
  quantity: number;
  blockedAreas: Rect[];
}

function draftVehicle(raw: unknown, i: number, ctx: ResolveContext, details: ErrorDetail[]): VehicleDraft | undefined {
  if (!isFields(raw)) return undefined;
  const path = `vehicles[${i}]`;
  const vid = text(raw.vehicle_id);
  const saved = vid !== undefined ? ctx.findVehicle(vid) : undefined;
  if (vid !== undefined && !saved) {
    details.push({ path: `${path}.vehicle_id`, code: 'unknown_vehicle', message: `no preset or own vehicle has the id "${vid}"` });
  }
  const f = merge(VEHICLE_FIELDS, saved, raw);
  if (raw.vehicle_id === undefined) {
    for (const k of ['type', 'length', 'width', 'height', 'max_weight'] as const) {
      if (f[k] === undefined) details.push({ path: `${path}.${k}`, code: 'required', message: `${k} is required unless vehicle_id names a saved vehicle` });
    }
  }
  const type = oneOf(VEHICLE_TYPES, f.type);
  if (type !== undefined && !ctx.allowedVehicleTypes.includes(type)) {
    details.push({
      path: raw.type !== undefined ? `${path}.type` : `${path}.vehicle_id`,
      code: 'type_not_allowed',
      message: `vehicle type "${type}" is not enabled for the organization; allowed: ${ctx.allowedVehicleTypes.join(', ') || 'none'}`,
    });
  }
  const length = positive(f.length);
  const width = positive(f.width);
  const height = positive(f.height);
  const maxWeight = positive(f.max_weight);

  if (f.aux_deck === true) {
    for (const k of ['aux_deck_height', 'aux_deck_max_weight'] as const) {
      if (f[k] === undefined) details.push({ path: `${path}.${k}`, code: 'required', message: `${k} is required when aux_deck is true` });
    }
    const deck = positive(f.aux_deck_height);
    if (deck !== undefined && height !== undefined && deck >= height) {
      details.push({ path: `${path}.aux_deck_height`, code: 'out_of_range', message: `must be below the vehicle height ${cm(height)} cm, got ${cm(deck)}` });
    }
  }

  const blockedAreas = blockedAreasOnFloor(f.blocked_areas, `${path}.blocked_areas`, length, width, details);
  axleRules(f, path, length, width, details);

  const quantity = wholeIn(f.quantity, 1, 100) ?? 1;
  const space =
    length !== undefined && width !== undefined && height !== undefined && maxWeight !== undefined && (vid === undefined || saved)
      ? { length, width, height, maxWeight }
      : undefined;
  return {
    index: i,
    path,
    fields: f,
    givenId: text(raw.id) ?? vid,
    defaultedFrom: raw.id === undefined && vid !== undefined ? 'vehicle_id' : null,
    name: text(raw.name),
    savedName: saved?.name,
    type,
    space,
    quantity,
    blockedAreas,
  };
}

/** Spec Vehicle.blocked_areas: "each must lie on the floor" (inside length × width). */
function blockedAreasOnFloor(
  v: unknown,
  path: string,
  length: number | undefined,
  width: number | undefined,
  details: ErrorDetail[],
): Rect[] {
  const out: Rect[] = [];
  listOf(v).forEach((r, j) => {
    if (!isFields(r)) return;
    const x = nonNegative(r.x);
    const z = nonNegative(r.z);
    const l = positive(r.length);
    const w = positive(r.width);
    const at = `${path}[${j}]`;
    const along = (pos: number | undefined, ext: number | undefined, limit: number | undefined, p: string, e: string, side: string) => {
      if (pos === undefined || limit === undefined) return;
      if (pos >= limit - EPS) {
        details.push({ path: `${at}.${p}`, code: 'out_of_range', message: `must be less than the vehicle ${side} ${cm(limit)} cm (blocked areas lie on the floor), got ${cm(pos)}` });
      } else if (ext !== undefined && pos + ext > limit + EPS) {
        details.push({ path: `${at}.${e}`, code: 'out_of_range', message: `${p} + ${e} = ${cm(pos + ext)} exceeds the vehicle ${side} ${cm(limit)} cm; blocked areas must lie on the floor` });
      }
    };
    along(x, l, length, 'x', 'length', 'length');
    along(z, w, width, 'z', 'width', 'width');
    if (x !== undefined && z !== undefined && l !== undefined && w !== undefined) out.push({ x, z, length: l, width: w });
  });
  return out;
}

/** Spec Vehicle axle fields: positions up to the vehicle length, as many loads as positions, cog ranges up to half the size. */
function axleRules(f: Fields, path: string, length: number | undefined, width: number | undefined, details: ErrorDetail[]): void {
  const positions = f.axle_positions;
  const loads = f.axle_max_loads;
  if (Array.isArray(positions) && Array.isArray(loads) && positions.length !== loads.length) {
    details.push({ path: `${path}.axle_max_loads`, code: 'invalid_value', message: `must have as many entries as axle_positions (${positions.length}), got ${loads.length}` });
  }
  if (length !== undefined) {
    listOf(positions).forEach((p, k) => {
      if (finite(p) && p > length + EPS) {
        details.push({ path: `${path}.axle_positions[${k}]`, code: 'out_of_range', message: `must be at most the vehicle length ${cm(length)} cm, got ${cm(p)}` });
      }
    });
    const cx = nonNegative(f.cog_range_x);
    if (cx !== undefined && cx > length / 2 + EPS) {
      details.push({ path: `${path}.cog_range_x`, code: 'out_of_range', message: `must be at most half the vehicle length (${cm(length / 2)} cm), got ${cm(cx)}` });
    }
  }
  const cy = nonNegative(f.cog_range_y);
  if (width !== undefined && cy !== undefined && cy > width / 2 + EPS) {
    details.push({ path: `${path}.cog_range_y`, code: 'out_of_range', message: `must be at most half the vehicle width (${cm(width / 2)} cm), got ${cm(cy)}` });
  }
}

interface ItemDraft {
  index: number;
  path: string;
  fields: Fields;
  givenId: string | undefined;
  defaultedFrom: string | null;
  shape: ItemShape;
  rotation: RotationRule;
  size: BoxSize | undefined;
  weight: number | undefined;
  quantity: number;
  group: string | null;
}

function draftItem(raw: unknown, i: number, ctx: ResolveContext, details: ErrorDetail[]): ItemDraft | undefined {
  if (!isFields(raw)) return undefined;
  const path = `items[${i}]`;
  const tid = text(raw.template_id);
  const template = tid !== undefined ? ctx.findTemplate(tid) : undefined;
  if (tid !== undefined && !template) {
    details.push({ path: `${path}.template_id`, code: 'unknown_template', message: `no template of the organization has the id "${tid}"` });
  }
  const f = merge(ITEM_FIELDS, template, raw);
  const shape = oneOf(ITEM_SHAPES, f.shape) ?? 'box';
  const round = shape === 'cylinder' || shape === 'drum';
  if (raw.template_id === undefined || template) {
    const because = template ? ` (template ${tid} does not supply it)` : '';
    const need: string[] = ['height', 'weight'];
    // With an unknown shape it is unclear whether radius or length/width are due; the schema reports the shape.
    if (f.shape === undefined || oneOf(ITEM_SHAPES, f.shape)) need.push(...(round ? ['radius'] : ['length', 'width']));
    for (const k of need) {
      if (f[k] !== undefined) continue;
      const when = k === 'radius' ? ` when shape is ${shape}` : k === 'length' || k === 'width' ? ' unless shape is cylinder or drum' : '';
      details.push({ path: `${path}.${k}`, code: 'required', message: `${k} is required${when}${because}` });
    }
  }
  const height = positive(f.height);
  let size: BoxSize | undefined;
  if (round) {
    const r = positive(f.radius);
    if (r !== undefined && height !== undefined) size = { length: 2 * r, width: 2 * r, height };
  } else {
    const l = positive(f.length);
    const w = positive(f.width);
    if (l !== undefined && w !== undefined && height !== undefined) size = { length: l, width: w, height };
  }
  const nesting = positive(f.nesting_height);
  if (nesting !== undefined && height !== undefined && nesting >= height) {
    details.push({ path: `${path}.nesting_height`, code: 'out_of_range', message: `must be less than the item height ${cm(height)} cm, got ${cm(nesting)}` });
  }
  return {
    index: i,
    path,
    fields: f,
    givenId: text(raw.id) ?? tid,
    defaultedFrom: raw.id === undefined && tid !== undefined ? 'template_id' : null,
    shape,
    rotation: oneOf(ROTATIONS, f.rotation) ?? 'all',
    size,
    weight: positive(f.weight),
    quantity: wholeIn(f.quantity, 1, 10_000) ?? 1,
    group: text(f.group) ?? null,
  };
}

function misfitMessage(d: ItemDraft, reason: 'size' | 'weight', spaces: readonly (VehicleSpace & { id: string })[]): string {
  if (reason === 'weight') {
    const top = spaces.reduce((m, v) => Math.max(m, v.maxWeight), 0);
    return `unit weight ${d.weight} kg exceeds the payload of every vehicle it fits in (largest payload ${top} kg); options.allow_overweight ignores payload limits`;
  }
  const shown = spaces.slice(0, 3).map((v) => `${v.id} ${dims(v)}`).join('; ');
  const more = spaces.length > 3 ? `; and ${spaces.length - 3} more` : '';
  const turn = d.rotation !== 'all' ? `rotation "${d.rotation}"` : d.shape === 'pallet' || d.shape === 'drum' ? `a ${d.shape} stays upright` : 'any of the six orientations';
  return `${dims(d.size!)} fits no listed vehicle (${turn}); inner sizes: ${shown}${more}`;
}

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
 * - Groups: order from groups[].order or list position; unlisted groups follow in order of
 *   appearance; no group → Number.MAX_SAFE_INTEGER. Item colour falls back to its group's.
 * - maxVehicles, budgetMs, minVehicles: see budget.ts. `items` = total units.
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

  const rawVehicles = listOf(body.vehicles);
  const vehicles = rawVehicles.map((raw, i) => draftVehicle(raw, i, ctx, details));
  const rawItems = listOf(body.items);
  const items = rawItems.map((raw, i) => draftItem(raw, i, ctx, details));
  const goodVehicles = vehicles.filter((v): v is VehicleDraft => v !== undefined);
  const goodItems = items.filter((d): d is ItemDraft => d !== undefined);

  // A loop, not push(...list): a list can hold 100,000+ problems, more than call arguments allow.
  for (const d of duplicateIds('vehicle', 'vehicles', goodVehicles.map((v) => ({ index: v.index, id: v.givenId, path: `${v.path}.${v.defaultedFrom ?? 'id'}`, defaulted: v.defaultedFrom })))) details.push(d);
  for (const d of duplicateIds('item', 'items', goodItems.map((d) => ({ index: d.index, id: d.givenId, path: `${d.path}.${d.defaultedFrom ?? 'id'}`, defaulted: d.defaultedFrom })))) details.push(d);

  const listed: ListedGroup[] = [];
  const listedAt = new Map<string, number>();
  listOf(body.groups).forEach((g, j) => {
    const name = isFields(g) ? text(g.name) : undefined;
    if (!isFields(g) || name === undefined) return;
    const prev = listedAt.get(name);
    if (prev !== undefined) {
      details.push({ path: `groups[${j}].name`, code: 'duplicate_id', message: `group "${name}" is already listed at groups[${prev}]` });
    } else {
      listedAt.set(name, j);
    }
    const entry: ListedGroup = { name };
    const order = wholeIn(g.order, -1_000_000_000, 1_000_000_000);
    if (order !== undefined) entry.order = order;
    if (typeof g.color === 'string' && COLOR.test(g.color)) entry.color = g.color;
    listed.push(entry);
  });
  if (groupRouting !== 'none') {
    for (const d of goodItems) {
      if (d.group !== null && !listedAt.has(d.group)) {
        details.push({ path: `${d.path}.group`, code: 'unknown_group', message: `group "${d.group}" is not listed in groups; with group_routing "${groupRouting}" every group an item names must be listed` });
      }
    }
  }

  const units = goodItems.reduce((n, d) => n + d.quantity, 0);
  if (units > ctx.maxItemsPerRequest) {
    details.push({ path: 'items', code: 'too_many_items', message: `the request has ${units} item units (sum of quantity); the limit is ${ctx.maxItemsPerRequest} per job` });
  }
  const listedVehicles = goodVehicles.reduce((n, v) => n + v.quantity, 0);
  if (listedVehicles > ctx.maxVehiclesPerRequest) {
    details.push({ path: 'vehicles', code: 'too_many_vehicles', message: `the request lists ${listedVehicles} vehicles (sum of quantity); the limit is ${ctx.maxVehiclesPerRequest} per job, auto-added vehicles included` });
  }

  const vehicleIds = assignIds('vehicle', vehicles.map((v) => v?.givenId));
  const itemIds = assignIds('item', items.map((d) => d?.givenId));
  const spaces = goodVehicles.flatMap((v) => (v.space ? [{ ...v.space, id: vehicleIds[v.index]! }] : []));
  const allVehiclesUsable = rawVehicles.length > 0 && spaces.length === rawVehicles.length;

  const orientationsOf = new Map<number, Orientation[]>();
  for (const d of goodItems) {
    if (!d.size) continue;
    let allowed = allowedOrientations(d.shape, d.rotation, d.size);
    if (o.lock_rotations === true && spaces.length > 0) allowed = [lockedOrientation(allowed, d.size, spaces)];
    orientationsOf.set(d.index, allowed);
    if (allVehiclesUsable && d.weight !== undefined) {
      const reason = misfit(d.size, d.weight, allowed, spaces, allowOverweight);
      if (reason) details.push({ path: d.path, code: 'does_not_fit', message: misfitMessage(d, reason, spaces) });
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
        ...missing.map((path): ErrorDetail => ({ path, code: 'out_of_range', message: 'must list at least one entry' })),
        ...unusable.map((path): ErrorDetail => ({ path, code: 'invalid_value', message: 'is not a complete definition: a field is missing or of the wrong type' })),
      ],
      warnings,
      incomplete: true,
    };
  }

  const orders = groupOrders(listed, goodItems.map((d) => d.group));
  const groupColor = new Map(listed.map((g) => [g.name, g.color] as const));
  const vehicleModels: VehicleModel[] = goodVehicles.map((v) => {
    const id = vehicleIds[v.index]!;
    const space = v.space!;
    return {
      id,
      name: v.name ?? v.savedName ?? id,
      type: v.type!,
      length: space.length,
      width: space.width,
      height: space.height,
      maxWeight: space.maxWeight,
      quantity: v.quantity,
      blockedAreas: v.blockedAreas,
      floorLoadCapacity: nonNegative(v.fields.floor_load_capacity) ?? 0,
      axles: axleModelOf(v.fields, ctx.axleAccess),
      auxDeck: v.fields.aux_deck === true && positive(v.fields.aux_deck_height) !== undefined && positive(v.fields.aux_deck_max_weight) !== undefined
        ? { height: positive(v.fields.aux_deck_height)!, maxWeight: positive(v.fields.aux_deck_max_weight)! }
        : null,
    };
  });
  const itemModels: ItemModel[] = goodItems.map((d) => {
    const id = itemIds[d.index]!;
    const f = d.fields;
    const color = typeof f.color === 'string' && COLOR.test(f.color) ? f.color : null;
    return {
      id,
      label: text(f.label) ?? id,
      shape: d.shape,
      length: d.size!.length,
      width: d.size!.width,
      height: d.size!.height,
      weight: d.weight!,
      quantity: d.quantity,
      stackable: f.stackable !== false,
      maxStackWeight: nonNegative(f.max_stack_weight) ?? 0,
      // Only a nesting shallower than the unit makes sense; deeper values are ignored.
      nestingHeight: (nonNegative(f.nesting_height) ?? 0) < d.size!.height ? (nonNegative(f.nesting_height) ?? 0) : 0,
      orientations: orientationsOf.get(d.index)!,
      priority: wholeIn(f.priority, 0, Number.MAX_SAFE_INTEGER) ?? 0,
      hazardous: f.hazardous === true,
      group: d.group,
      groupOrder: d.group === null ? NO_GROUP_ORDER : (orders.get(d.group) ?? NO_GROUP_ORDER),
      color: color ?? (d.group !== null ? (groupColor.get(d.group) ?? null) : null),
    };
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
    budgetMs: computeBudgetMs(nonNegative(o.time_limit) ?? 0, units, ctx.maxTimeLimitSeconds),
    seed: ctx.seed,
  };
  return { ok: true, model, warnings, items: units, minVehicles };
}
