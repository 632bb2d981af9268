/** The `Retry-After` of the operator switches' `503 api_disabled` answers (spec Errors, retry rules). */
import { DomainError } from '../errors.js';

/** Default Retry-After of maintenance mode, s: a short maintenance window is retried soon. */
export const MAINTENANCE_RETRY_AFTER_S = 300;
/** Default Retry-After of an organization whose API is switched off, s. */
export const ORG_DISABLED_RETRY_AFTER_S = 3600;

/** Throws DomainError validation_failed unless `seconds` is a whole number ≥ 1 (HTTP `Retry-After` delta-seconds). */
export function checkRetryAfter(seconds: number): void {
  if (!Number.isInteger(seconds) || seconds < 1)
    throw new DomainError('validation_failed', `retry-after must be a whole number of seconds ≥ 1, not ${seconds}`);
}
