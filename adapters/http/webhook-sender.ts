/**
 * The webhook sender over node:http(s) (port domain/ports/webhook-sender.ts): checks the target
 * again (adapters/http/webhook-target.ts) and connects to the address it checked (the request's
 * `lookup` answers with it), so DNS rebinding between the check and the connection is not
 * possible. TLS still verifies the certificate against the URL's host name. Redirects are not
 * followed (a 3xx counts as a failed attempt). Each attempt times out after `timeoutMs`.
 */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import type { AttemptOutcome } from '../../domain/webhook/delivery.js';
import type { WebhookRequest, WebhookSender } from '../../domain/ports/webhook-sender.js';
import { checkWebhookTarget, type Resolve } from './webhook-target.js';

/** Default time one attempt may take until the answer's status arrives, ms. */
export const WEBHOOK_TIMEOUT_MS = 10_000;

/** A sender; `allowPrivate` is WEBHOOK_ALLOW_PRIVATE_TARGETS. */
export function httpWebhookSender(options: {
  allowPrivate: boolean;
  timeoutMs?: number;
  resolve?: Resolve;
}): WebhookSender {
  const timeoutMs = options.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  return {
    async send(req: WebhookRequest, signal?: AbortSignal): Promise<AttemptOutcome> {
      const target = await checkWebhookTarget(req.url, options.allowPrivate, options.resolve);
      if (!target.ok) return { statusCode: null, error: `${target.code}: ${target.message}` };
      const pinned: LookupFunction = (_host, opts, callback) => {
        if ((opts as { all?: boolean }).all)
          (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [
            { address: target.address, family: target.family },
          ]);
        else callback(null, target.address, target.family);
      };
      const send = target.url.protocol === 'https:' ? httpsRequest : httpRequest;
      return new Promise<AttemptOutcome>((resolve) => {
        const outgoing = send(
          target.url,
          {
            method: 'POST',
            headers: { ...req.headers, 'content-length': Buffer.byteLength(req.body) },
            lookup: pinned,
            timeout: timeoutMs,
            ...(signal ? { signal } : {}),
          },
          (res) => {
            res.resume();
            resolve({ statusCode: res.statusCode ?? null, error: null });
          },
        );
        outgoing.on('timeout', () => outgoing.destroy(new Error(`no answer within ${timeoutMs} ms`)));
        outgoing.on('error', (err: NodeJS.ErrnoException) =>
          resolve({ statusCode: null, error: err.code ? `${err.code}: ${err.message}` : err.message }),
        );
        outgoing.end(req.body);
      });
    },
  };
}
