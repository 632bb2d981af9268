/**
 * Read models of webhooks (our extension):
 * - `webhook_endpoints`: one document per `webhook-endpoint-<id>` stream, kept as a tombstone
 *   after deletion; a disabled endpoint (its creator was removed) keeps its document with why. The positions of registration and deletion let the dispatcher ask which
 *   endpoints were live at a log position. Holds the signing secret (the API never shows it again).
 * - `webhook_deliveries`: one document per `webhook-delivery-<id>` stream with every attempt;
 *   GET /v1/webhook_endpoints/{id}/deliveries reads it, the delivery worker finds due ones in it.
 */
import type { Actor } from '../../domain/decider/actor.js';
import type { FieldPath, IndexSpec, ReadStore } from '../../domain/ports/read-store.js';
import type { RecordedEvent } from '../../domain/ports/event-store.js';
import type {
  WebhookDeliveryAttemptedData,
  WebhookDeliveryScheduledData,
  WebhookDeliveryStatus,
} from '../../domain/webhook/delivery.js';
import type { WebhookEndpointDisabledReason, WebhookEndpointEvent } from '../../domain/webhook/endpoint.js';
import type { WebhookEventKind } from '../../domain/webhook/event-kinds.js';
import { WEBHOOK_DELIVERY_STREAM_PREFIX, WEBHOOK_ENDPOINT_STREAM_PREFIX } from '../../domain/webhook/streams.js';
import type { Projection } from '../projection.js';

export const WEBHOOK_ENDPOINTS = 'webhook_endpoints';
export const WEBHOOK_DELIVERIES = 'webhook_deliveries';

export interface WebhookEndpointDocument {
  /** `whe_…` */
  id: string;
  orgId: string;
  url: string;
  events: WebhookEventKind[];
  secret: string;
  /** RFC 3339 */
  createdAt: string;
  createdBy: Actor;
  /** Set when the endpoint was disabled (nothing more is sent to it): when and why; null while active. */
  disabledAt: string | null;
  disabledReason: WebhookEndpointDisabledReason | null;
  /** Global log position of WebhookEndpointDisabled, null unless disabled. */
  disabledPosition: number | null;
  deleted: boolean;
  deletedAt: string | null;
  /** Global log position of WebhookEndpointRegistered. */
  registeredPosition: number;
  /** Global log position of WebhookEndpointDeleted, null while live. */
  deletedPosition: number | null;
  /** Position of the last event applied. */
  position: number;
}

/** One attempt as the deliveries list shows it. */
export interface DeliveryAttemptRecord {
  attempt: number;
  attemptedAt: string;
  statusCode: number | null;
  error: string | null;
  succeeded: boolean;
}

export interface WebhookDeliveryDocument {
  /** `whd_…` */
  id: string;
  endpointId: string;
  orgId: string;
  eventId: string;
  type: WebhookEventKind;
  jobId: string;
  status: Exclude<WebhookDeliveryStatus, 'none'>;
  attempts: DeliveryAttemptRecord[];
  /** RFC 3339 of the next attempt; null once succeeded, given up or dropped. */
  nextAttemptAt: string | null;
  /** When it was scheduled (RFC 3339); lists sort on it. */
  createdAt: string;
  position: number;
}

/**
 * - endpoints `orgId, deleted, createdAt↓, id↓`: the list; the dispatcher's look-up by organization.
 * - deliveries `endpointId, createdAt↓, id↓`: an endpoint's deliveries, newest first.
 * - deliveries `status, nextAttemptAt`: the worker's due deliveries.
 */
export const WEBHOOK_ENDPOINT_INDEXES: readonly IndexSpec<FieldPath<WebhookEndpointDocument>>[] = [
  {
    keys: [
      ['orgId', 1],
      ['deleted', 1],
      ['createdAt', -1],
      ['id', -1],
    ],
  },
];
export const WEBHOOK_DELIVERY_INDEXES: readonly IndexSpec<FieldPath<WebhookDeliveryDocument>>[] = [
  {
    keys: [
      ['endpointId', 1],
      ['createdAt', -1],
      ['id', -1],
    ],
  },
  {
    keys: [
      ['status', 1],
      ['nextAttemptAt', 1],
    ],
  },
];

/** The data of the endpoint event of type `T`, as the endpoint decider records it. */
type EndpointEventData<T extends WebhookEndpointEvent['type']> = Extract<WebhookEndpointEvent, { type: T }>['data'];

async function applyEndpoint(recorded: RecordedEvent, store: ReadStore): Promise<void> {
  const endpoints = store.collection<WebhookEndpointDocument>(WEBHOOK_ENDPOINTS);
  if (recorded.type === 'WebhookEndpointRegistered') {
    const d = recorded.data as EndpointEventData<'WebhookEndpointRegistered'>;
    if (await endpoints.get(d['endpointId'])) return;
    await endpoints.put({
      id: d['endpointId'],
      orgId: d['orgId'],
      url: d['url'],
      events: d['events'],
      secret: d['secret'],
      createdAt: d['createdAt'],
      createdBy: d['createdBy'],
      disabledAt: null,
      disabledReason: null,
      disabledPosition: null,
      deleted: false,
      deletedAt: null,
      registeredPosition: recorded.position,
      deletedPosition: null,
      position: recorded.position,
    });
  } else if (recorded.type === 'WebhookEndpointDisabled') {
    const d = recorded.data as EndpointEventData<'WebhookEndpointDisabled'>;
    const doc = await endpoints.get(d['endpointId']);
    if (!doc || recorded.position <= doc.position) return;
    await endpoints.put({
      ...doc,
      disabledAt: d['disabledAt'],
      disabledReason: d['reason'],
      disabledPosition: recorded.position,
      position: recorded.position,
    });
  } else if (recorded.type === 'WebhookEndpointDeleted') {
    const d = recorded.data as EndpointEventData<'WebhookEndpointDeleted'>;
    const doc = await endpoints.get(d['endpointId']);
    if (!doc || recorded.position <= doc.position) return;
    await endpoints.put({
      ...doc,
      deleted: true,
      deletedAt: d['deletedAt'],
      deletedPosition: recorded.position,
      position: recorded.position,
    });
  }
}

async function applyDelivery(recorded: RecordedEvent, store: ReadStore): Promise<void> {
  const deliveries = store.collection<WebhookDeliveryDocument>(WEBHOOK_DELIVERIES);
  if (recorded.type === 'WebhookDeliveryScheduled') {
    const d = recorded.data as WebhookDeliveryScheduledData;
    if (await deliveries.get(d.deliveryId)) return;
    await deliveries.put({
      id: d.deliveryId,
      endpointId: d.endpointId,
      orgId: d.orgId,
      eventId: d.eventId,
      type: d.type,
      jobId: d.jobId,
      status: 'pending',
      attempts: [],
      nextAttemptAt: d.scheduledAt,
      createdAt: d.scheduledAt,
      position: recorded.position,
    });
    return;
  }
  const id = (recorded.data as { deliveryId: string }).deliveryId;
  const doc = await deliveries.get(id);
  if (!doc || recorded.position <= doc.position) return;
  if (recorded.type === 'WebhookDeliveryAttempted') {
    const a = recorded.data as WebhookDeliveryAttemptedData;
    const status = a.succeeded ? 'succeeded' : a.nextAttemptAt === null ? 'failed' : 'pending';
    const attempt: DeliveryAttemptRecord = {
      attempt: a.attempt,
      attemptedAt: a.attemptedAt,
      statusCode: a.statusCode,
      error: a.error,
      succeeded: a.succeeded,
    };
    await deliveries.put({
      ...doc,
      status,
      attempts: [...doc.attempts, attempt],
      nextAttemptAt: a.nextAttemptAt,
      position: recorded.position,
    });
  } else if (recorded.type === 'WebhookDeliveryDropped') {
    await deliveries.put({ ...doc, status: 'dropped', nextAttemptAt: null, position: recorded.position });
  }
}

export const webhooksProjection: Projection = {
  name: 'webhooks',
  async apply(recorded, store) {
    if (recorded.stream.startsWith(WEBHOOK_ENDPOINT_STREAM_PREFIX)) await applyEndpoint(recorded, store);
    else if (recorded.stream.startsWith(WEBHOOK_DELIVERY_STREAM_PREFIX)) await applyDelivery(recorded, store);
  },
};
