/**
 * The wire shapes the playground and the jobs pages send and read (spec "Resources and their
 * fields": PackRequest, Vehicle, Item, Estimate, Job, JobList, Result). Sizes in cm, weights in kg,
 * money in credits, times RFC 3339. Only the fields the pages use are typed; the service is the
 * judge of every body (the same validation as the API).
 */

/** Spec Item: one SKU with `quantity` identical units. */
export interface PackItem {
  id?: string;
  template_id?: string;
  label?: string;
  shape?: 'box' | 'cylinder' | 'pallet' | 'bag' | 'drum';
  length?: number;
  width?: number;
  height?: number;
  radius?: number;
  weight?: number;
  quantity?: number;
  stackable?: boolean;
  max_stack_weight?: number;
  rotation?: 'all' | 'upright' | 'fixed';
  hazardous?: boolean;
  priority?: number;
  group?: string;
  color?: string;
  nesting_height?: number;
}

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

/** One problem of a body (spec Errors: ErrorDetail). */
export interface Detail {
  path: string;
  code: string;
  message: string;
}

/** A non-blocking remark (spec Warning; fields beyond these may come). */
export interface Warning {
  code?: string;
  message?: string;
  [field: string]: unknown;
}

/** Spec Estimate (answer of POST /v1/estimate). */
export interface Estimate {
  valid: boolean;
  errors: Detail[];
  warnings: Warning[];
  items: number;
  max_vehicles: number;
  estimated_cost: { min_credits: number; max_credits: number };
  estimated_seconds: number;
  balance: { available_credits: number };
}

/** Spec Job status. */
export type JobStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'canceled';

/** Spec Job (without `result`), plus our `viewer_url` (issue 9: the signed 3D viewer page). */
export interface Job {
  id: string;
  object: 'job';
  status: JobStatus;
  reference?: string;
  source?: 'api' | 'playground';
  project_id?: string;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  progress: { stage: string; vehicles_done: number; placed_items: number };
  summary: {
    items_requested: number;
    items_placed: number;
    items_unplaced: number;
    vehicles_used: number;
    total_weight: number;
    volume_utilization: number;
    queue_ms: number;
    compute_ms: number;
  };
  cost: {
    credits: number;
    reserved_credits: number;
    rate_card_version: number;
    breakdown: { base: number; vehicles: number; compute: number; large_load: number };
  };
  error: { code: string; message: string } | null;
  warnings: Warning[];
  result_url: string;
  pdf_url: string;
  viewer_url?: string;
  expires_at: string;
}

/** Spec JobList: one page, newest first; `next_cursor` empty on the last page. */
export interface JobList {
  data: Job[];
  next_cursor: string;
}

/** True for the statuses that never change (spec States and transitions). */
export function isFinal(status: JobStatus): boolean {
  return status === 'succeeded' || status === 'failed' || status === 'canceled';
}
