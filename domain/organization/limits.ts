/**
 * An organization's limits (spec "Limits" defaults; GET /v1/limits shows the effective values).
 */
import type { VehicleType } from '../pack/request.js';

export interface OrgLimits {
  maxItemsPerRequest: number;
  maxVehiclesPerRequest: number;
  maxTimeLimitSeconds: number;
  concurrency: number;
  maxQueuedJobs: number;
  retentionDays: number;
  allowedVehicleTypes: VehicleType[];
  /** Plan caps on saved data: projects, and saved cargo items (templates). */
  maxProjects: number;
  maxTemplates: number;
  /** Requests per minute / hour / day, per key and per organization. */
  rateLimits: { perMinute: number; perHour: number; perDay: number };
}

/** The spec's defaults. */
export const DEFAULT_LIMITS: OrgLimits = {
  maxItemsPerRequest: 2000,
  maxVehiclesPerRequest: 20,
  maxTimeLimitSeconds: 90,
  concurrency: 1,
  maxQueuedJobs: 20,
  retentionDays: 14,
  allowedVehicleTypes: ['truck', 'trailer', 'container', 'pallet'],
  maxProjects: 100,
  maxTemplates: 500,
  rateLimits: { perMinute: 60, perHour: 1000, perDay: 5000 },
};
