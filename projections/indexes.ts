/**
 * The indexes every read model declares beside its document type, by collection name: what a
 * read store that needs indexes (MongoDB) creates at start. Collections read only by id
 * (organizations, api_keys, balances, usage_jobs) need none beyond the id.
 */
import type { IndexSpec } from '../domain/ports/read-store.js';
import { IDEMPOTENCY_CLAIM_INDEXES, IDEMPOTENCY_CLAIMS } from './idempotency-claims/projection.js';
import { JOB_INDEXES, JOBS } from './jobs/job-document.js';
import { PROJECT_INDEXES, PROJECTS } from './projects/project-document.js';
import { SAVED_RECORD_INDEXES } from './saved-records/projection.js';
import { TEMPLATES } from './templates/projection.js';
import { USAGE_DAY_INDEXES, USAGE_DAYS } from './usage/projection.js';
import { VEHICLES } from './vehicles/projection.js';
import { WEB_SESSIONS } from './sessions/projection.js';
import { INVITATION_INDEXES, INVITATIONS } from './organizations/projection.js';
import { RESERVATION_INDEXES, RESERVATIONS } from './balances/projection.js';
import {
  WEBHOOK_DELIVERIES,
  WEBHOOK_DELIVERY_INDEXES,
  WEBHOOK_ENDPOINT_INDEXES,
  WEBHOOK_ENDPOINTS,
} from './webhooks/projection.js';

/** Collection name → the indexes it needs (keys in order; `id` is the document key). */
export const READ_MODEL_INDEXES: Readonly<Record<string, readonly IndexSpec[]>> = {
  [JOBS]: JOB_INDEXES,
  [VEHICLES]: SAVED_RECORD_INDEXES,
  [TEMPLATES]: SAVED_RECORD_INDEXES,
  [PROJECTS]: PROJECT_INDEXES,
  [USAGE_DAYS]: USAGE_DAY_INDEXES,
  [WEBHOOK_ENDPOINTS]: WEBHOOK_ENDPOINT_INDEXES,
  [WEBHOOK_DELIVERIES]: WEBHOOK_DELIVERY_INDEXES,
  // A removed member's sessions are ended by member.
  [WEB_SESSIONS]: [{ keys: [['memberId', 1]] }],
  [IDEMPOTENCY_CLAIMS]: IDEMPOTENCY_CLAIM_INDEXES,
  [INVITATIONS]: INVITATION_INDEXES,
  // The open reservations of an organization (balances projection).
  [RESERVATIONS]: RESERVATION_INDEXES,
};
