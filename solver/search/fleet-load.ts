/**
 * One construction over the job's vehicles: listed vehicles are loaded in the order given
 * (each definition's copies 1..quantity); in `auto` mode, while units remain and the plan has
 * fewer than `maxVehicles` vehicles, a copy of the most suitable definition is added. The most
 * suitable definition is the one whose trial load (same strategy) takes the largest volume of
 * the remaining units; ties go to the smaller vehicle volume, then to the earlier definition.
 * When loading ends, the last vehicle's units are repacked together with an earlier vehicle's
 * into that vehicle where possible (fewer vehicles); units still left then get the freed one.
 */
import type { VehicleModel } from '../../domain/pack/plan.js';
import type { JobContext } from './job-context.js';
import { blockUnits } from './block.js';
import { mulberry32 } from './prng.js';
import { GREEDY_STRATEGIES, strategyAt, type Strategy } from './strategy.js';
import type { LoadState, VehicleLoad } from './load-state.js';
import { loadVehicle } from './vehicle-load.js';
import { seedFor } from './pinned.js';
import { spent, type WorkBudget } from './work-budget.js';

/** A loaded vehicle with its identity in the plan. */
export interface LoadedVehicle extends VehicleLoad {
  /** 1-based copy number per definition (auto-added copies continue after `quantity`). */
  copy: number;
  autoAdded: boolean;
}

/** Result of one construction, before plan assembly. */
export interface Construction {
  strategy: Strategy;
  vehicles: LoadedVehicle[];
  /** Units left per item index. */
  remaining: number[];
  weightBlocked: boolean[];
  /** Per item index: a unit fitted a space but not the load there (vehicle-load.ts LoadState). */
  loadBlocked: boolean[];
  /** Per item index: units kept out or unloaded for the axles (vehicle-load.ts LoadState). */
  axleBlocked: boolean[];
  /** Per item index: the safe stacking rules that kept units out (LoadState.ruleBlocked bits). */
  ruleBlocked: number[];
  /** The deadline ended the construction; units left were not all tried. */
  cut: boolean;
  /** Auto mode stopped adding vehicles at `maxVehicles` while units remained. */
  vehicleLimitHit: boolean;
  /** Internal: the vehicle a repack just emptied, to be reused for units left. */
  freed?: LoadedVehicle;
}

function anyLeft(state: LoadState): boolean {
  return state.remaining.some((r) => r > 0);
}

/**
 * Runs one construction with `strategy` until done or `budget` is spent. Every vehicle copy with
 * pinned units (pinned.ts) is in it, even when nothing else is loaded there or the budget cut
 * the construction short.
 */
export function loadFleet(ctx: JobContext, strategy: Strategy, budget: WorkBudget): Construction {
  const out = construct(ctx, strategy, budget);
  for (const seed of ctx.pinned) {
    const vehicle = ctx.model.vehicles[seed.vehicle]!;
    if (out.vehicles.some((v) => v.vehicle === vehicle && v.copy === seed.copy)) continue;
    out.vehicles.push({
      vehicle,
      blocks: seed.blocks.slice(),
      weight: seed.weight,
      volume: seed.volume,
      momentX: seed.momentX,
      momentZ: seed.momentZ,
      minX: seed.minX,
      maxX: seed.maxX,
      cut: out.cut,
      copy: seed.copy,
      autoAdded: false,
    });
  }
  return out;
}

function construct(ctx: JobContext, strategy: Strategy, budget: WorkBudget): Construction {
  const { model } = ctx;
  const rng = mulberry32(strategy.seed);
  const state: LoadState = {
    // Pinned units are loaded from the start (pinned.ts), not searched for.
    remaining: model.items.map((it, i) => it.quantity - ctx.pinnedCount[i]!),
    weightBlocked: model.items.map(() => false),
    loadBlocked: model.items.map(() => false),
    axleBlocked: model.items.map(() => false),
    ruleBlocked: model.items.map(() => 0),
  };
  const out: Construction = {
    strategy,
    vehicles: [],
    remaining: state.remaining,
    weightBlocked: state.weightBlocked,
    loadBlocked: state.loadBlocked,
    axleBlocked: state.axleBlocked,
    ruleBlocked: state.ruleBlocked,
    cut: false,
    vehicleLimitHit: false,
  };
  const limit = Math.max(0, model.maxVehicles);
  // Copies with pinned units are always loaded; the others leave room for them within the limit.
  let pinnedAhead = ctx.pinned.length;
  for (const v of model.vehicles) {
    for (let copy = 1; copy <= v.quantity; copy++) {
      const seed = seedFor(ctx.pinned, model, v, copy);
      if (seed) pinnedAhead--;
      else if (!anyLeft(state) || out.vehicles.length + pinnedAhead >= limit) continue;
      const load = loadVehicle(ctx, v, state, strategy, rng, budget, seed);
      if (load.blocks.length > 0) out.vehicles.push({ ...load, copy, autoAdded: false });
      if (load.cut) {
        out.cut = true;
        return out;
      }
    }
  }
  const added = new Map<VehicleModel, number>();
  // Each round drops a vehicle or ends; the cap guards against add/merge cycles.
  for (let round = 0; round <= limit; round++) {
    if (model.packingMode === 'auto') addVehicles(ctx, strategy, budget, state, out, added);
    if (out.cut || !mergeLast(ctx, strategy, budget, out)) break;
    const freed = out.freed!;
    out.freed = undefined;
    if (!anyLeft(state)) continue;
    const load = loadVehicle(
      ctx,
      freed.vehicle,
      state,
      strategy,
      mulberry32(strategy.seed ^ (out.vehicles.length + 7919)),
      budget,
    );
    if (load.blocks.length > 0) out.vehicles.push({ ...load, copy: freed.copy, autoAdded: freed.autoAdded });
    else if (freed.autoAdded) added.set(freed.vehicle, (added.get(freed.vehicle) ?? 1) - 1);
    if (load.cut) out.cut = true;
  }
  return out;
}

/** Auto mode: adds copies of the most suitable definition while units remain (see top). */
function addVehicles(
  ctx: JobContext,
  strategy: Strategy,
  budget: WorkBudget,
  state: LoadState,
  out: Construction,
  added: Map<VehicleModel, number>,
): void {
  const { model } = ctx;
  const limit = Math.max(0, model.maxVehicles);
  while (anyLeft(state)) {
    if (out.vehicles.length >= limit) {
      out.vehicleLimitHit = true;
      break;
    }
    let best: { v: VehicleModel; load: VehicleLoad; state: LoadState } | null = null;
    for (const v of model.vehicles) {
      const trial: LoadState = {
        remaining: state.remaining.slice(),
        weightBlocked: state.weightBlocked.slice(),
        loadBlocked: state.loadBlocked.slice(),
        axleBlocked: state.axleBlocked.slice(),
        ruleBlocked: state.ruleBlocked.slice(),
      };
      const load = loadVehicle(ctx, v, trial, strategy, mulberry32(strategy.seed ^ out.vehicles.length), budget);
      const vol = v.length * v.width * v.height;
      const better =
        !best ||
        load.volume > best.load.volume + 1e-9 ||
        (Math.abs(load.volume - best.load.volume) <= 1e-9 && vol < best.v.length * best.v.width * best.v.height);
      if (better) best = { v, load, state: trial };
      if (load.cut) break;
    }
    if (!best || best.load.blocks.length === 0) {
      if (best?.load.cut) out.cut = true;
      break;
    }
    state.remaining.splice(0, state.remaining.length, ...best.state.remaining);
    state.weightBlocked.splice(0, state.weightBlocked.length, ...best.state.weightBlocked);
    state.loadBlocked.splice(0, state.loadBlocked.length, ...best.state.loadBlocked);
    state.axleBlocked.splice(0, state.axleBlocked.length, ...best.state.axleBlocked);
    state.ruleBlocked.splice(0, state.ruleBlocked.length, ...best.state.ruleBlocked);
    const n = (added.get(best.v) ?? 0) + 1;
    added.set(best.v, n);
    out.vehicles.push({ ...best.load, copy: best.v.quantity + n, autoAdded: true });
    if (best.load.cut) {
      out.cut = true;
      break;
    }
  }
}

/**
 * Strategies (strategy.ts indices) tried after the construction's own when repacking two
 * vehicles' units into one: the five greedy ones, then their pilot variants (repacks are rare:
 * only when the volume is within reach, so the look-ahead is affordable).
 */
const MERGE_STRATEGIES = Array.from({ length: 2 * GREEDY_STRATEGIES }, (_, i) => i);
/** Pilot repacks only when units × kinds to repack stay within this (their cost grows with both). */
const PILOT_MERGE_WORK = 10_000;

/**
 * Tries to repack the last vehicle's units together with those of an earlier vehicle (the
 * emptiest first, when payload allows and their volume is within the best fill this
 * construction reached in a vehicle, so hopeless repacks are not tried) into the earlier one. On success the last
 * vehicle is dropped (left in `out.freed`) and true is returned.
 */
function mergeLast(ctx: JobContext, strategy: Strategy, budget: WorkBudget, out: Construction): boolean {
  const { model } = ctx;
  const last = out.vehicles[out.vehicles.length - 1];
  if (!last || out.vehicles.length < 2) return false;
  // A copy with pinned units stays in the plan.
  if (seedFor(ctx.pinned, model, last.vehicle, last.copy)) return false;
  const order = out.vehicles
    .slice(0, -1)
    .map((v, i) => ({ v, i }))
    .sort((a, b) => a.v.volume / vol(a.v) - b.v.volume / vol(b.v) || a.i - b.i);
  const reach = Math.max(...out.vehicles.map((v) => v.volume / vol(v)));
  for (const { v, i } of order) {
    if (last.volume + v.volume > reach * vol(v) + 1e-6) continue;
    if (!model.allowOverweight && last.weight + v.weight > v.vehicle.maxWeight + 1e-9) continue;
    const units = model.items.map(() => 0);
    // Pinned units of the earlier vehicle stay where they are: its loading starts from them again.
    const seed = seedFor(ctx.pinned, model, v.vehicle, v.copy);
    for (const b of [...v.blocks, ...last.blocks]) if (!b.pinned) units[b.item]! += blockUnits(b);
    const n = units.reduce((a, b) => a + b, 0),
      kinds = units.filter((u) => u > 0).length;
    const tries = [
      strategy,
      ...MERGE_STRATEGIES.filter((k) => k < GREEDY_STRATEGIES || n * kinds <= PILOT_MERGE_WORK).map((k) =>
        strategyAt(model.seed, k),
      ),
    ];
    for (const s of tries) {
      if (spent(budget)) {
        out.cut = true;
        return false;
      }
      const trial: LoadState = {
        remaining: units.slice(),
        weightBlocked: out.weightBlocked.slice(),
        loadBlocked: out.loadBlocked.slice(),
        axleBlocked: out.axleBlocked.slice(),
        ruleBlocked: out.ruleBlocked.slice(),
      };
      const load = loadVehicle(ctx, v.vehicle, trial, s, mulberry32(s.seed), budget, seed);
      if (load.cut) {
        out.cut = true;
        return false;
      }
      if (trial.remaining.some((r) => r > 0)) continue;
      out.vehicles[i] = { ...load, copy: v.copy, autoAdded: v.autoAdded };
      out.vehicles.pop();
      out.freed = last;
      return true;
    }
  }
  return false;
}

function vol(v: LoadedVehicle): number {
  return v.vehicle.length * v.vehicle.width * v.vehicle.height;
}
