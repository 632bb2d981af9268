/**
 * One construction over the job's vehicles: listed vehicles are loaded in the order given
 * (each definition's copies 1..quantity); in `auto` mode, while units remain and the plan has
 * fewer than `maxVehicles` vehicles, a copy of the most suitable definition is added. The most
 * suitable definition is the one whose trial load (same strategy) takes the largest volume of
 * the remaining units; ties go to the smaller vehicle volume, then to the earlier definition.
 */
import type { VehicleModel } from '../model/types.js';
import type { JobContext } from './job-context.js';
import { mulberry32 } from './prng.js';
import type { Strategy } from './strategy.js';
import { loadVehicle, type LoadState, type VehicleLoad } from './vehicle-load.js';

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
  /** The deadline ended the construction; units left were not all tried. */
  cut: boolean;
  /** Auto mode stopped adding vehicles at `maxVehicles` while units remained. */
  vehicleLimitHit: boolean;
}

function anyLeft(state: LoadState): boolean {
  return state.remaining.some((r) => r > 0);
}

/** Runs one construction with `strategy` until done or `deadline` (epoch ms). */
export function loadFleet(ctx: JobContext, strategy: Strategy, deadline: number): Construction {
  const { model } = ctx;
  const rng = mulberry32(strategy.seed);
  const state: LoadState = {
    remaining: model.items.map((it) => it.quantity),
    weightBlocked: model.items.map(() => false),
  };
  const out: Construction = { strategy, vehicles: [], remaining: state.remaining, weightBlocked: state.weightBlocked, cut: false, vehicleLimitHit: false };
  const limit = Math.max(0, model.maxVehicles);
  for (const v of model.vehicles) {
    for (let copy = 1; copy <= v.quantity; copy++) {
      if (!anyLeft(state) || out.vehicles.length >= limit) break;
      const load = loadVehicle(ctx, v, state, strategy, rng, deadline);
      if (load.blocks.length > 0) out.vehicles.push({ ...load, copy, autoAdded: false });
      if (load.cut) {
        out.cut = true;
        return out;
      }
    }
  }
  if (model.packingMode !== 'auto') return out;
  const added = new Map<VehicleModel, number>();
  while (anyLeft(state)) {
    if (out.vehicles.length >= limit) {
      out.vehicleLimitHit = true;
      break;
    }
    let best: { v: VehicleModel; load: VehicleLoad; state: LoadState } | null = null;
    for (const v of model.vehicles) {
      const trial: LoadState = { remaining: state.remaining.slice(), weightBlocked: state.weightBlocked.slice() };
      const load = loadVehicle(ctx, v, trial, strategy, mulberry32(strategy.seed ^ out.vehicles.length), deadline);
      const vol = v.length * v.width * v.height;
      const better = !best || load.volume > best.load.volume + 1e-9 ||
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
    const n = (added.get(best.v) ?? 0) + 1;
    added.set(best.v, n);
    out.vehicles.push({ ...best.load, copy: best.v.quantity + n, autoAdded: true });
    if (best.load.cut) {
      out.cut = true;
      break;
    }
  }
  return out;
}
