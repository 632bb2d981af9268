/**
 * Stream names of the webhook aggregates (our extension); the only place they
 * are built or read: `webhook-endpoint-<whe_…>` (one endpoint), `webhook-delivery-<whd_…>` (one
 * event sent to one endpoint) and `webhook-dispatch` (the dispatcher's checkpoints).
 */
export const WEBHOOK_ENDPOINT_STREAM_PREFIX = 'webhook-endpoint-';
export const WEBHOOK_DELIVERY_STREAM_PREFIX = 'webhook-delivery-';

export const webhookEndpointStream = (endpointId: string): string => `${WEBHOOK_ENDPOINT_STREAM_PREFIX}${endpointId}`;
export const webhookDeliveryStream = (deliveryId: string): string => `${WEBHOOK_DELIVERY_STREAM_PREFIX}${deliveryId}`;

/** The stream of the dispatcher's checkpoints (WebhookDispatchCheckpointed). */
export const WEBHOOK_DISPATCH_STREAM = 'webhook-dispatch';
