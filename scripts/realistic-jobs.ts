/**
 * Realistic packing jobs for benchmarks (`npm run bench -- auto`, scripts/bench-auto.ts):
 * PackRequests in the spec's shape ("PackRequest", "Vehicle", "Item") with the automatic time
 * limit (`time_limit` 0), deterministic for a seed. Lengths in cm, weights in kg.
 *
 * A job holds cartons (SKUs of 20–120 cm, 2–60 kg, some `rotation: upright`, some not stackable
 * or with `max_stack_weight`), pallets (`shape: pallet`: EUR 120 × 80, US 120 × 100 or
 * 121.9 × 101.6, 100–180 cm high, 200–900 kg), or both; 50–1,500 units in total; 1–5 vehicle
 * types of real inside sizes and payloads (vans, box trucks, 20 ft / 40 ft / 40 ft HC containers,
 * 13.6 m trailers); `packing_mode` auto or fleet_only. About a third are short: fleet_only with
 * less vehicle volume or payload than the cargo needs (shortByBound), so not every unit fits.
 */
import type { ItemInput, PackRequest, VehicleInput, VehicleType } from '../domain/pack/request.js';
import type { PackModel } from '../domain/pack/plan.js';
import { mulberry32, type Random } from '../solver/search/prng.js';

/** One generated job: a name for the bench's rows and the request body. */
export interface RealisticJob {
  name: string;
  request: PackRequest;
}

/** A vehicle type: inside sizes, cm; payload, kg. */
interface VehicleKind {
  id: string;
  name: string;
  type: VehicleType;
  length: number;
  width: number;
  height: number;
  max_weight: number;
}

const VEHICLE_KINDS: readonly VehicleKind[] = [
  { id: 'van', name: 'Van 3.5 t', type: 'truck', length: 420, width: 175, height: 190, max_weight: 1_100 },
  { id: 'box-7t5', name: 'Box truck 7.5 t', type: 'truck', length: 620, width: 245, height: 240, max_weight: 2_800 },
  { id: 'box-18t', name: 'Box truck 18 t', type: 'truck', length: 750, width: 248, height: 260, max_weight: 9_000 },
  {
    id: '20ft',
    name: "20' dry container",
    type: 'container',
    length: 589,
    width: 235,
    height: 239,
    max_weight: 28_200,
  },
  {
    id: '40ft',
    name: "40' dry container",
    type: 'container',
    length: 1203,
    width: 235,
    height: 239,
    max_weight: 26_700,
  },
  { id: '40hc', name: "40' high-cube", type: 'container', length: 1203, width: 235, height: 269, max_weight: 26_500 },
  { id: 'trailer', name: 'Trailer 13.6 m', type: 'trailer', length: 1360, width: 248, height: 270, max_weight: 24_000 },
  {
    id: 'mega',
    name: 'Mega trailer 13.6 m',
    type: 'trailer',
    length: 1360,
    width: 248,
    height: 300,
    max_weight: 24_000,
  },
];

/** Pallet footprints, cm: EUR, US 120 × 100, US 48 × 40 in. */
const PALLET_FOOTPRINTS: readonly (readonly [number, number])[] = [
  [120, 80],
  [120, 80],
  [120, 100],
  [121.9, 101.6],
];

/** Most vehicles a request may list (the default job limit, spec Limits). */
const MAX_VEHICLES = 20;
const MIN_UNITS = 50;
const MAX_UNITS = 1_500;
/** Share of a vehicle's volume a mixed load can count on when the job should fit. */
const USABLE_VOLUME = 0.6;
/** The fleet a job that should fit gets: this many times what its load needs. */
const FIT_MARGIN = 1.3;

const int = (rng: Random, lo: number, hi: number): number => lo + Math.floor(rng() * (hi - lo + 1));
const pick = <T>(rng: Random, xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)]!;
/** A copy of `xs` in random order (Fisher–Yates). */
function shuffled<T>(rng: Random, xs: readonly T[]): T[] {
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
const round1 = (x: number): number => Math.round(x * 10) / 10;

/** A carton SKU; `dense` draws heavier goods (kg per m³). */
function carton(rng: Random, n: number, dense: boolean): ItemInput {
  const length = int(rng, 30, 120),
    width = int(rng, 20, Math.min(length, 80)),
    height = int(rng, 20, 80);
  const density = dense ? int(rng, 300, 600) : int(rng, 60, 300);
  const item: ItemInput = {
    id: `ctn-${n}`,
    label: `Carton ${n}`,
    length,
    width,
    height,
    weight: round1(Math.min(60, Math.max(2, (length * width * height * density) / 1e6))),
  };
  const r = rng();
  if (r < 0.35) item.rotation = 'upright';
  else if (r < 0.45) item.rotation = 'all';
  const s = rng();
  if (s < 0.1) item.stackable = false;
  else if (s < 0.25) item.max_stack_weight = int(rng, 40, 250);
  return item;
}

/** A pallet SKU (`shape: pallet`, always upright); most are not stackable. */
function pallet(rng: Random, n: number, dense: boolean): ItemInput {
  const [length, width] = pick(rng, PALLET_FOOTPRINTS);
  const item: ItemInput = {
    id: `plt-${n}`,
    label: `Pallet ${n}`,
    shape: 'pallet',
    length,
    width,
    height: int(rng, 100, 180),
    weight: dense ? int(rng, 500, 900) : int(rng, 200, 700),
  };
  if (rng() < 0.7) item.stackable = false;
  else item.max_stack_weight = int(rng, 300, 900);
  return item;
}

/** Splits `units` over the SKUs at random, each at least 1 (units ≥ SKUs). */
function spread(rng: Random, items: ItemInput[], units: number): void {
  const shares = items.map(() => 0.2 + rng());
  const total = shares.reduce((a, b) => a + b, 0);
  let left = units - items.length;
  items.forEach((it, i) => {
    const q = i === items.length - 1 ? left : Math.min(left, Math.floor(((units - items.length) * shares[i]!) / total));
    it.quantity = 1 + q;
    left -= q;
  });
}

const unitsOf = (items: readonly ItemInput[]): number => items.reduce((n, it) => n + (it.quantity ?? 1), 0);

/** Cargo volume (cm³) and weight (kg); `roomHeight` > 0 counts a unit nothing may stand on as its footprint times that height. */
function load(items: readonly ItemInput[], roomHeight = 0): { volume: number; weight: number } {
  let volume = 0,
    weight = 0;
  for (const it of items) {
    const q = it.quantity ?? 1;
    const h = roomHeight > 0 && it.stackable === false ? Math.max(it.height!, roomHeight) : it.height!;
    volume += q * it.length! * it.width! * h;
    weight += q * it.weight!;
  }
  return { volume, weight };
}

const volumeOf = (v: VehicleKind): number => v.length * v.width * v.height;

/** Share of the load that the fleet's volume and payload allow (1 = exactly enough), at `usable` of the volume. */
function capacityShare(
  fleet: readonly (readonly [VehicleKind, number])[],
  items: readonly ItemInput[],
  usable: number,
): number {
  const room = Math.min(...fleet.map(([v]) => v.height));
  const cargo = load(items, usable < 1 ? room : 0);
  const volume = fleet.reduce((s, [v, q]) => s + q * volumeOf(v), 0) * usable;
  const payload = fleet.reduce((s, [v, q]) => s + q * v.max_weight, 0);
  return Math.min(volume / cargo.volume, payload / cargo.weight);
}

/** Scales the SKU quantities by `factor` (each at least 1), total units kept within 50–1,500. */
function scaleUnits(items: ItemInput[], factor: number): void {
  const target = Math.max(MIN_UNITS, Math.min(MAX_UNITS, Math.round(unitsOf(items) * factor)));
  const now = unitsOf(items);
  for (const it of items) it.quantity = Math.max(1, Math.round(((it.quantity ?? 1) * target) / now));
  while (unitsOf(items) > MAX_UNITS) {
    const most = items.reduce((a, b) => ((a.quantity ?? 1) >= (b.quantity ?? 1) ? a : b));
    most.quantity = (most.quantity ?? 1) - 1;
  }
  while (unitsOf(items) < MIN_UNITS) items[0]!.quantity = (items[0]!.quantity ?? 1) + 1;
}

/**
 * The fleet's quantities. `short`: fleet_only with at most `shortShare` of the cargo's volume or
 * weight (fewer vehicles, else more units). Otherwise the fleet (fleet_only: the listed
 * vehicles; auto: 20 of the largest listed) carries FIT_MARGIN times the load at USABLE_VOLUME,
 * with fewer units if 20 vehicles cannot.
 */
function sizeFleet(rng: Random, kinds: VehicleKind[], items: ItemInput[], mode: 'auto' | 'fleet_only', short: boolean) {
  const fleet: [VehicleKind, number][] = kinds.map((v) => [v, 1]);
  const listed = (): number => fleet.reduce((n, [, q]) => n + q, 0);
  if (short) {
    const shortShare = 0.5 + 0.4 * rng();
    // Drop the largest types until one of each is short enough, then grow the load if need be.
    fleet.sort(([a], [b]) => volumeOf(a) - volumeOf(b));
    while (fleet.length > 1 && capacityShare(fleet, items, 1) > shortShare) fleet.pop();
    const share = capacityShare(fleet, items, 1);
    if (share > shortShare) scaleUnits(items, share / shortShare);
    for (let i = 0; listed() < MAX_VEHICLES; i = (i + 1) % fleet.length) {
      fleet[i]![1]++;
      if (capacityShare(fleet, items, 1) > shortShare) {
        fleet[i]![1]--;
        break;
      }
    }
  } else if (mode === 'fleet_only') {
    for (let i = 0; listed() < MAX_VEHICLES && capacityShare(fleet, items, USABLE_VOLUME) < FIT_MARGIN;) {
      fleet[i]![1]++;
      i = (i + 1) % fleet.length;
    }
  } else {
    for (const f of fleet) f[1] = rng() < 0.2 ? 2 : 1;
  }
  if (!short) {
    const largest = kinds.reduce((a, b) => (volumeOf(a) >= volumeOf(b) ? a : b));
    const reach = mode === 'auto' ? [[largest, MAX_VEHICLES] as const] : fleet;
    const share = capacityShare(reach, items, USABLE_VOLUME);
    if (share < FIT_MARGIN) scaleUnits(items, share / FIT_MARGIN);
  }
  return fleet;
}

/** One job from its own PRNG stream (the job's number names it). */
function realisticJob(rng: Random, n: number): RealisticJob {
  const kind = pick(rng, ['cartons', 'cartons', 'cartons', 'pallets', 'mixed', 'mixed'] as const);
  const dense = rng() < 0.25;
  const items: ItemInput[] = [];
  if (kind !== 'pallets')
    for (let i = int(rng, kind === 'mixed' ? 3 : 2, 16); i > 0; i--) items.push(carton(rng, items.length + 1, dense));
  if (kind !== 'cartons') for (let i = int(rng, 1, 4); i > 0; i--) items.push(pallet(rng, items.length + 1, dense));
  const units =
    kind === 'pallets' ? int(rng, MIN_UNITS, 260) : Math.round(MIN_UNITS * (MAX_UNITS / MIN_UNITS) ** rng());
  spread(rng, items, units);
  if (kind === 'mixed') {
    // Pallets are some 10–25 % of a mixed job's units.
    for (const it of items) if (it.shape === 'pallet') it.quantity = Math.max(1, Math.round((it.quantity ?? 1) * 0.3));
    scaleUnits(items, 1);
  }

  const types = pick(rng, [1, 1, 1, 2, 2, 3, 3, 4, 5]);
  const kinds = shuffled(rng, VEHICLE_KINDS).slice(0, types);
  const short = rng() < 1 / 3;
  const mode = short || rng() < 0.5 ? 'fleet_only' : 'auto';
  const fleet = sizeFleet(rng, kinds, items, mode, short);
  const vehicles: VehicleInput[] = fleet.map(([v, q]) => ({ ...v, ...(q > 1 ? { quantity: q } : {}) }));
  const name = `gen-${String(n).padStart(3, '0')}-${kind}`;
  return {
    name,
    request: { reference: name, vehicles, items, options: { packing_mode: mode, time_limit: 0 } },
  };
}

/** `count` jobs for `seed` (the same seed gives the same jobs; job i does not depend on `count`). */
export function realisticJobs(count: number, seed: number): RealisticJob[] {
  return Array.from({ length: count }, (_, i) => realisticJob(mulberry32(seed * 100_003 + i), i + 1));
}

/**
 * Whether a resolved job cannot place every unit by the volume and weight bound: the cargo's
 * volume (or, unless allow_overweight, weight) exceeds what its vehicles can hold (fleet_only:
 * the listed ones; auto: maxVehicles of the largest).
 */
export function shortByBound(model: PackModel): boolean {
  const volume = model.items.reduce((s, it) => s + it.quantity * it.length * it.width * it.height, 0);
  const weight = model.items.reduce((s, it) => s + it.quantity * it.weight, 0);
  const vs = model.vehicles;
  const [room, payload] =
    model.packingMode === 'fleet_only'
      ? [
          vs.reduce((s, v) => s + v.quantity * v.length * v.width * v.height, 0),
          vs.reduce((s, v) => s + v.quantity * v.maxWeight, 0),
        ]
      : [
          model.maxVehicles * Math.max(...vs.map((v) => v.length * v.width * v.height)),
          model.maxVehicles * Math.max(...vs.map((v) => v.maxWeight)),
        ];
  return volume > room * (1 + 1e-9) || (!model.allowOverweight && weight > payload * (1 + 1e-9));
}
