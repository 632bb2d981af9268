/**
 * The webhook records of the API (our extension): the JSON Schemas of WebhookEndpointInput,
 * WebhookEndpoint and WebhookDelivery, one source that ajv compiles and the OpenAPI document shows,
 * and the views that write the read models' documents (projections/webhooks) as those records.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { validatorOnFirstUse } from '../schema-validator.js';
import { WEBHOOK_EVENT_KINDS } from '../../../domain/webhook/event-kinds.js';
import type { WebhookDeliveryDocument, WebhookEndpointDocument } from '../../../projections/webhooks/projection.js';
import type { JsonSchema } from '../route-docs.js';

/** The opening of every webhook description in the OpenAPI document. */
export const EXTENSION = 'Our extension (not in the spec).';

export const inputSchema: JsonSchema = {
  title: 'WebhookEndpointInput',
  description: `${EXTENSION} Where to send which job events.`,
  type: 'object',
  additionalProperties: false,
  required: ['url', 'events'],
  properties: {
    url: {
      type: 'string',
      minLength: 1,
      maxLength: 2048,
      description: 'https:// or http:// URL; its host must resolve to public addresses only',
    },
    events: {
      type: 'array',
      minItems: 1,
      uniqueItems: true,
      items: { enum: [...WEBHOOK_EVENT_KINDS] },
      description: 'Event kinds to receive',
    },
  },
};
/** Checks a POST body against WebhookEndpointInput (every problem). */
export const validateInput = validatorOnFirstUse(() =>
  new Ajv2020({ allErrors: true, strict: false, verbose: true }).compile(inputSchema),
);

export const endpointSchema: JsonSchema = {
  title: 'WebhookEndpoint',
  description: `${EXTENSION} A URL receiving signed job events: POST \`{id, type, created_at, data: {job}}\` with \`Packing-Signature: t=<unix s>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" keyed with secret>\` and \`Packing-Event-Id\` (the same on every retry: de-duplicate by it; delivery is at least once).`,
  type: 'object',
  required: ['id', 'object', 'url', 'events', 'status', 'disabled_reason', 'disabled_at', 'created_at', 'created_by'],
  properties: {
    id: { type: 'string', description: 'whe_…' },
    object: { const: 'webhook_endpoint' },
    url: { type: 'string' },
    events: { type: 'array', items: { enum: [...WEBHOOK_EVENT_KINDS] } },
    status: {
      enum: ['active', 'disabled'],
      description:
        'disabled: nothing is sent to it any more (see disabled_reason); delete it when it is no longer wanted',
    },
    disabled_reason: {
      enum: ['creator_removed', null],
      description: 'creator_removed: the member who created it was removed from the organization',
    },
    disabled_at: { type: ['string', 'null'], format: 'date-time' },
    secret: {
      type: 'string',
      description: 'whsec_…: the signing secret, only in the answer to the POST that created the endpoint',
    },
    created_at: { type: 'string', format: 'date-time' },
    created_by: {
      type: 'object',
      required: ['id', 'name'],
      properties: { id: { type: 'string' }, name: { type: 'string' } },
    },
  },
};

const attemptSchema: JsonSchema = {
  type: 'object',
  required: ['attempt', 'attempted_at', 'status_code', 'error', 'succeeded'],
  properties: {
    attempt: { type: 'integer', minimum: 1 },
    attempted_at: { type: 'string', format: 'date-time' },
    status_code: { type: ['integer', 'null'], description: 'HTTP status of the answer; null when none came' },
    error: { type: ['string', 'null'], description: 'Why no answer came (refused target, DNS, timeout, connection)' },
    succeeded: { type: 'boolean', description: 'A 2xx answer' },
  },
};

export const deliverySchema: JsonSchema = {
  title: 'WebhookDelivery',
  description: `${EXTENSION} One event sent to one endpoint. Failed attempts are retried with exponential backoff for three days.`,
  type: 'object',
  required: [
    'id',
    'object',
    'endpoint_id',
    'event_id',
    'type',
    'job_id',
    'status',
    'attempts',
    'next_attempt_at',
    'created_at',
  ],
  properties: {
    id: { type: 'string', description: 'whd_…' },
    object: { const: 'webhook_delivery' },
    endpoint_id: { type: 'string' },
    event_id: { type: 'string', description: 'evt_…: the `id` of the body and the Packing-Event-Id header' },
    type: { enum: [...WEBHOOK_EVENT_KINDS] },
    job_id: { type: 'string' },
    status: {
      enum: ['pending', 'succeeded', 'failed', 'dropped'],
      description: 'failed: given up after the retry window; dropped: the endpoint was deleted or disabled first',
    },
    attempts: { type: 'array', items: attemptSchema },
    next_attempt_at: { type: ['string', 'null'], format: 'date-time' },
    created_at: { type: 'string', format: 'date-time' },
  },
};

/** A WebhookEndpoint as the API answers it; `secret` only in the answer to its registration. */
export const endpointView = (d: WebhookEndpointDocument, secret?: string): Record<string, unknown> => ({
  id: d.id,
  object: 'webhook_endpoint',
  url: d.url,
  events: d.events,
  status: d.disabledAt ? 'disabled' : 'active',
  disabled_reason: d.disabledReason ?? null,
  disabled_at: d.disabledAt ?? null,
  ...(secret !== undefined ? { secret } : {}),
  created_at: d.createdAt,
  created_by: d.createdBy,
});

/** A WebhookDelivery as the API answers it, with every attempt. */
export const deliveryView = (d: WebhookDeliveryDocument): Record<string, unknown> => ({
  id: d.id,
  object: 'webhook_delivery',
  endpoint_id: d.endpointId,
  event_id: d.eventId,
  type: d.type,
  job_id: d.jobId,
  status: d.status,
  attempts: d.attempts.map((a) => ({
    attempt: a.attempt,
    attempted_at: a.attemptedAt,
    status_code: a.statusCode,
    error: a.error,
    succeeded: a.succeeded,
  })),
  next_attempt_at: d.nextAttemptAt,
  created_at: d.createdAt,
});
