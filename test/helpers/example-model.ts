/**
 * The model the service resolves from a request body with the default limits, rebuilt in a test
 * to give the independent verifier its input (requests that use presets only, no templates).
 */
import { checkPackRequest } from '../../api/pack-request/check.js';
import { DEFAULT_LIMITS } from '../../domain/organization/limits.js';
import { findPreset } from '../../domain/vehicle/presets.js';

/** Throws when `body` does not validate (the error lists the details). */
export function modelOf(body: unknown) {
  const checked = checkPackRequest(body, {
    allowedVehicleTypes: DEFAULT_LIMITS.allowedVehicleTypes,
    maxItemsPerRequest: DEFAULT_LIMITS.maxItemsPerRequest,
    maxVehiclesPerRequest: DEFAULT_LIMITS.maxVehiclesPerRequest,
    maxTimeLimitSeconds: DEFAULT_LIMITS.maxTimeLimitSeconds,
    axleAccess: false,
    findVehicle: findPreset,
    findTemplate: () => undefined,
    seed: 1,
  });
  if (!checked.ok) throw new Error(`request does not validate: ${JSON.stringify(checked.details)}`);
  return checked;
}
