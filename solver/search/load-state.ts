/**
 * What the loading of one construction carries from block to block and vehicle to vehicle: the
 * load of one vehicle (vehicle-load.ts builds it, axle-balance.ts moves or trims it) and the
 * units left per item. Lengths in cm, weights in kg.
 */
import type { VehicleModel } from '../../domain/pack/plan.js';
import type { Block } from './block.js';

/** Blocks loaded in one vehicle and what stopped the loading. */
export interface VehicleLoad {
  vehicle: VehicleModel;
  blocks: Block[];
  /** kg and cm³ loaded. */
  weight: number;
  volume: number;
  /** Σ weight · centre x and Σ weight · centre z of the loaded units, kg·cm. */
  momentX: number;
  momentZ: number;
  /** Front-most and rear-most x of the loaded units, cm (Infinity / −Infinity when empty). */
  minX: number;
  maxX: number;
  /** The deadline ended the loading before every tier was tried. */
  cut: boolean;
}

/** Mutable state shared by the vehicles of one construction. */
export interface LoadState {
  /** Units still to load, per item index. */
  remaining: number[];
  /** Per item index: a unit fitted a space once but the payload did not allow it. */
  weightBlocked: boolean[];
  /**
   * Per item index: a unit fitted a space once but the load it would put there was too much
   * (max_stack_weight, floor load, stack density: load-bearing.ts).
   */
  loadBlocked: boolean[];
  /** Per item index: a unit fitted a space once but would have overloaded an axle or was unloaded to balance a vehicle. */
  axleBlocked: boolean[];
  /**
   * Per item index: the safe stacking rules that kept a unit out of a space it fitted, as bits
   * (RULE_PALLET_BASE, RULE_HEAVY_ON_LIGHT, RULE_MAX_SLENDERNESS); 0 when none did.
   */
  ruleBlocked: number[];
}

/** LoadState.ruleBlocked bit: a pallet fitted only on units that are not pallets (pallets_on_cartons). */
export const RULE_PALLET_BASE = 1;
/** LoadState.ruleBlocked bit: a unit fitted only on units too light for it (heavy_on_light). */
export const RULE_HEAVY_ON_LIGHT = 2;
/** LoadState.ruleBlocked bit: a unit was taken off a stack too slender to stand free (max_slenderness). */
export const RULE_MAX_SLENDERNESS = 4;
