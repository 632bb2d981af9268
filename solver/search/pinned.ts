/**
 * Pinned units in the search (request Vehicle.loaded, PackModel.vehicles[i].loaded): each vehicle
 * copy with pinned units starts its loading from a seed, the pinned units as one-unit blocks
 * already placed, with the empty maximal spaces carved around them and the figures they bring
 * (weight, volume, moments, hazardous footprints, deck weight). Constructions never move or
 * remove a pinned block (vehicle-load.ts, axle-balance.ts, fleet-load.ts).
 *
 * Load bearing: each pinned unit U gets the pressure its top may still take (kg/cm²,
 * Space.capacity of the spaces on it, load-bearing.ts), computed bottom-up from the pressure
 * p of the surfaces under it (the floor's capacity; on the second deck none; on pinned units the
 * least of theirs) and the weight L of the pinned units above it, counted whole on every unit it
 * rests on (never less than the verifier's share by contact area):
 * min(p · A − w − L, max_stack_weight − L) / A, never below 0 (A its bearing area, w its weight).
 * Whatever the search then puts on U presses on it within that pressure, and what it puts on a
 * pinned unit above U within a pressure no higher, so U's total stays within the limits.
 * Lengths in cm, weights in kg.
 */
import type { PackModel, PinnedUnit, VehicleModel } from '../../domain/pack/plan.js';
import { blockCentre, type Block } from './block.js';
import { cargoSpaces } from './cargo-space.js';
import { footprint, type HazardFootprint } from './hazard.js';
import { floorCapacity } from './load-bearing.js';
import { EPS, occupy, type MinSize, type Space } from './maximal-space.js';
import { orientedSize } from './orientation.js';
import { bearingArea, uprightRound } from './round-arrangement.js';
import { topOf, type SafeStacking } from './safe-stacking.js';

/** The start of the loading of one vehicle copy with pinned units. */
export interface PinnedSeed {
  /** Index into model.vehicles, and the 1-based copy. */
  vehicle: number;
  copy: number;
  /** One one-unit block per pinned unit, in request order. */
  blocks: Block[];
  /** Empty maximal spaces around the pinned units (spaces smaller than the job's units dropped). */
  spaces: Space[];
  /** kg, cm³, kg·cm (Σ weight · centre x, z), front-most and rear-most x of the pinned units. */
  weight: number;
  volume: number;
  momentX: number;
  momentZ: number;
  minX: number;
  maxX: number;
  hazards: HazardFootprint[];
  /** kg of pinned units standing on the second deck. */
  deckWeight: number;
}

/** Units of each item that are pinned, per item index. */
export function pinnedCounts(model: PackModel): number[] {
  const counts = model.items.map(() => 0);
  for (const v of model.vehicles) for (const u of v.loaded ?? []) counts[u.item]!++;
  return counts;
}

/** The smallest placed size along each axis of the units left to pack (Infinity when none). */
function minSizeOf(model: PackModel, left: readonly number[]): MinSize {
  const m = { x: Infinity, y: Infinity, z: Infinity };
  model.items.forEach((it, i) => {
    if ((left[i] ?? 0) < 1) return;
    for (const o of it.orientations) {
      const s = orientedSize(it, o);
      m.x = Math.min(m.x, s.l);
      m.y = Math.min(m.y, s.h);
      m.z = Math.min(m.z, s.w);
    }
  });
  return m;
}

/**
 * The seeds of every vehicle copy with pinned units, vehicles in model order, copies ascending.
 * Pinned units of an item get instances 1..k in request order.
 */
export function pinnedSeeds(model: PackModel, safe: SafeStacking): PinnedSeed[] {
  const counts = pinnedCounts(model);
  const left = model.items.map((it, i) => it.quantity - counts[i]!);
  const min = minSizeOf(model, left);
  const nextInstance = model.items.map(() => 1);
  const seeds: PinnedSeed[] = [];
  model.vehicles.forEach((vehicle, vi) => {
    const units = (vehicle.loaded ?? []).map((u) => ({ u, instance: nextInstance[u.item]!++ }));
    const copies = [...new Set(units.map(({ u }) => u.copy))].sort((a, b) => a - b);
    for (const copy of copies) {
      const mine = units.filter(({ u }) => u.copy === copy);
      seeds.push(seedOf(model, vehicle, vi, copy, mine, min, safe));
    }
  });
  return seeds;
}

/** The seed of the pinned units `mine` (request order) in copy `copy` of `vehicle`. */
function seedOf(
  model: PackModel,
  vehicle: VehicleModel,
  vi: number,
  copy: number,
  mine: readonly { u: PinnedUnit; instance: number }[],
  min: MinSize,
  safe: SafeStacking,
): PinnedSeed {
  const deck = vehicle.auxDeck;
  const units = mine.map(({ u, instance }) => {
    const item = model.items[u.item]!;
    const size = orientedSize(item, u.orientation);
    return { u, item, size, instance, top: u.y + size.h, load: 0, cap: 0, level: 0, nest: 0 };
  });
  const overlaps = (a: (typeof units)[number], b: (typeof units)[number]): boolean =>
    a.u.x < b.u.x + b.size.l - EPS &&
    b.u.x < a.u.x + a.size.l - EPS &&
    a.u.z < b.u.z + b.size.w - EPS &&
    b.u.z < a.u.z + a.size.w - EPS;
  const onBase = (a: (typeof units)[number]): boolean =>
    a.u.y <= EPS || (deck !== null && Math.abs(a.u.y - deck.height) <= EPS);
  // What each unit rests on: units whose top is at its bottom over an area, or the identical
  // unit it nests into (same item, footprint and orientation, sunk nesting_height into it).
  const under = units.map((a) => {
    if (onBase(a)) return [];
    const out = units.filter((b) => b !== a && Math.abs(b.top - a.u.y) <= 1e-5 && overlaps(a, b));
    if (a.size.pitch < a.size.h) {
      const into = units.find(
        (b) =>
          b !== a &&
          b.u.item === a.u.item &&
          b.u.orientation === a.u.orientation &&
          Math.abs(b.u.x - a.u.x) <= EPS &&
          Math.abs(b.u.z - a.u.z) <= EPS &&
          Math.abs(b.u.y + b.size.pitch - a.u.y) <= 1e-5,
      );
      if (into) {
        a.nest = a.size.h - a.size.pitch;
        out.push(into);
      }
    }
    return out;
  });
  const order = units.map((_, i) => i).sort((a, b) => units[a]!.u.y - units[b]!.u.y || a - b);
  // Top-down: the pinned weight above each unit, counted whole on every unit under it.
  for (const i of [...order].reverse()) {
    const a = units[i]!;
    for (const b of under[i]!) b.load += a.item.weight + a.load;
  }
  // Bottom-up: the pressure each top may still take and its stack level.
  const floor = floorCapacity(model, vehicle);
  for (const i of order) {
    const a = units[i]!;
    const below = under[i]!;
    const onDeck = deck !== null && Math.abs(a.u.y - deck.height) <= EPS;
    // Unsupported units are refused at admission; were one here, its top would take nothing.
    const pressure =
      a.u.y <= EPS ? floor : onDeck ? Infinity : below.length === 0 ? 0 : Math.min(...below.map((b) => b.cap));
    const area = bearingArea(a.item, a.u.orientation, a.size.l, a.size.w);
    const byPressure = pressure * area - a.item.weight - a.load;
    const byStack = a.item.maxStackWeight > 0 ? a.item.maxStackWeight - a.load : Infinity;
    a.cap = Math.max(0, Math.min(byPressure, byStack) / area);
    a.level = Math.max(0, ...below.map((b) => b.level)) + 1;
  }

  const seed: PinnedSeed = {
    vehicle: vi,
    copy,
    blocks: [],
    spaces: Number.isFinite(min.x) ? cargoSpaces(model, vehicle, min) : [],
    weight: 0,
    volume: 0,
    momentX: 0,
    momentZ: 0,
    minX: Infinity,
    maxX: -Infinity,
    hazards: [],
    deckWeight: 0,
  };
  for (const [order, a] of units.entries()) {
    const block: Block = {
      item: a.u.item,
      orientation: a.u.orientation,
      size: a.size,
      nx: 1,
      ny: 1,
      nz: 1,
      x: a.u.x,
      y: a.u.y,
      z: a.u.z,
      pinned: { instance: a.instance, order, nest: a.nest },
    };
    seed.blocks.push(block);
    const w = a.item.weight;
    const c = blockCentre(block);
    seed.weight += w;
    seed.volume += a.size.l * a.size.w * a.size.h;
    seed.momentX += w * c.x;
    seed.momentZ += w * c.z;
    seed.minX = Math.min(seed.minX, a.u.x);
    seed.maxX = Math.max(seed.maxX, a.u.x + a.size.l);
    if (a.item.hazardous) seed.hazards.push(footprint(block));
    if (deck !== null && a.u.y >= deck.height - EPS) seed.deckWeight += w;
  }
  // Carved bottom-up, so the spaces on a unit's top exist before the units resting on it split them.
  if (seed.spaces.length > 0) {
    for (const i of order) {
      const a = units[i]!;
      const onDeck = deck !== null && a.u.y >= deck.height - EPS;
      const capped =
        !a.item.stackable ||
        (model.maxStackItems > 0 && a.level >= model.maxStackItems) ||
        uprightRound(a.item, a.u.orientation);
      seed.spaces = occupy(
        seed.spaces,
        {
          x0: a.u.x,
          x1: a.u.x + a.size.l,
          z0: a.u.z,
          z1: a.u.z + a.size.w,
          y0: a.u.y,
          // Nothing above a capped unit up to its ceiling (vehicle-load.ts does the same).
          y1: capped ? (deck && !onDeck ? deck.height : vehicle.height) : a.top,
          topLevel: a.level,
          supportsAbove: !capped,
          capacityAbove: a.cap,
          ...topOf(safe, a.item, a.size.l, a.size.w),
        },
        min,
      );
    }
  }
  return seed;
}

/** The seed of copy `copy` of `vehicle`, or undefined when it has no pinned units. */
export function seedFor(
  seeds: readonly PinnedSeed[],
  model: PackModel,
  vehicle: VehicleModel,
  copy: number,
): PinnedSeed | undefined {
  return seeds.find((s) => s.copy === copy && model.vehicles[s.vehicle] === vehicle);
}
