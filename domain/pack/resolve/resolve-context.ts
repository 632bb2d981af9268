/**
 * What resolving a PackRequest reads from the organization and what it answers
 * (domain/pack/resolve/resolve.ts). Lengths in cm, weights in kg, times in ms unless named otherwise.
 */
import type { ErrorDetail, Warning } from '../diagnostics.js';
import type { ItemInput, SavedVehicle, VehicleType } from '../request.js';
import type { PackModel } from '../plan.js';

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
