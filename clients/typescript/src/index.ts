/**
 * @packing/client: a typed client of the packing service. Types are generated
 * from the service's OpenAPI document (generated/openapi.ts); see README.md.
 */
export {
  PackingClient,
  DEFAULT_BASE_URL,
  FINAL_STATUSES,
  type ClientOptions,
  type CreateJobOptions,
  type PackOptions,
  type QueryOf,
} from './client.js';
export * from './errors.js';
export { eachRecord, type Page } from './paging.js';
export {
  DEFAULT_RETRY,
  isRetryableConflict,
  RETRYABLE_STATUSES,
  retryAfterSeconds,
  retryDelayMs,
  type RetryPolicy,
} from './retry.js';
export { Transport, type Answer, type Request, type RetryEvent, type TransportOptions } from './transport.js';
export type * from './generated/openapi.js';
export { OPERATIONS } from './generated/openapi.js';
// Webhook receivers: check the Packing-Signature header of a delivery.
export * from './webhook-signature.js';
