/**
 * The kinds of webhook events and which stored event each comes from. A job's
 * webhook event is sent once the job is settled on its ledger (`JobSettled`): its status and its
 * final cost are then what GET /v1/jobs/{id} shows.
 */
import type { JobOutcome } from '../ledger/pricing.js';

/** Every event kind an endpoint can subscribe to. */
export const WEBHOOK_EVENT_KINDS = ['job.succeeded', 'job.failed', 'job.canceled'] as const;
export type WebhookEventKind = (typeof WEBHOOK_EVENT_KINDS)[number];

/** The kind of a settled job's event: `canceled` → job.canceled, any other error code → job.failed. */
export function kindOfOutcome(outcome: JobOutcome): WebhookEventKind {
  if (outcome === 'succeeded') return 'job.succeeded';
  return outcome === 'canceled' ? 'job.canceled' : 'job.failed';
}
