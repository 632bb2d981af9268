/**
 * Webhook sender port: POSTs one signed webhook request and reports the answer's
 * status or why none came. It never throws for a failed delivery. Adapter: adapters/http/webhook-sender.ts
 * (checks the target's resolved addresses against the internal ranges before connecting).
 */
import type { AttemptOutcome } from '../webhook/delivery.js';

/** One POST: the endpoint's URL, the exact body text and the headers to send. */
export interface WebhookRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
}

export interface WebhookSender {
  /**
   * Resolves with the HTTP status (`statusCode`) or, when no answer came, `error` (statusCode
   * null). `signal` aborts the request (the service is stopping, or the attempt's lease is running
   * out): it then resolves with an error.
   */
  send(request: WebhookRequest, signal?: AbortSignal): Promise<AttemptOutcome>;
}
