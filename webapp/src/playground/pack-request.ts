/**
 * The wire shapes the playground and the jobs pages send and read (spec "Resources and their
 * fields": PackRequest, Vehicle, Item, Estimate, Job, JobList, Result). Sizes in cm, weights in kg,
 * money in credits, times RFC 3339. Only the fields the pages use are typed; the service is the
 * judge of every body (the same validation as the API).
 */

import type { Item, Job } from '../../../clients/typescript/src/generated/openapi.js';

/** Spec Item: one SKU with `quantity` identical units (the typed client's generated type). */
export type PackItem = Item;

/** Spec Vehicle as the playground sends it: a saved vehicle by id with a quantity (other fields allowed when pasted). */
export interface PackVehicle {
  vehicle_id?: string;
  quantity?: number;
  [field: string]: unknown;
}

/** Spec PackRequest (body of POST /v1/pack and POST /v1/estimate). */
export interface PackRequest {
  reference?: string;
  vehicles: PackVehicle[];
  items: PackItem[];
  groups?: unknown[];
  options?: Record<string, unknown>;
}

/**
 * The answers the pages read, as the typed client generates them from the service's OpenAPI
 * document (clients/typescript, kept in step with the service by a test): one definition of the
 * wire, not a second copy.
 */
export type {
  Warning,
  Estimate,
  Job,
  JobList,
  Result,
  PlanRevision,
  PlanRevisionList,
} from '../../../clients/typescript/src/generated/openapi.js';

/** Spec Job status. */
export type JobStatus = Job['status'];

/** True for the statuses that never change (spec States and transitions). */
export function isFinal(status: JobStatus): boolean {
  return status === 'succeeded' || status === 'failed' || status === 'canceled';
}
