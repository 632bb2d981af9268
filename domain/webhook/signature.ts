/**
 * The `Packing-Signature` header of a webhook request:
 * `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" keyed with the endpoint's secret>`.
 * Receivers check it with clients/typescript/src/webhook-signature.ts.
 */
import { createHmac } from 'node:crypto';

/** The header value signing `body` (the exact bytes sent, UTF-8) at `unixSeconds` with `secret`. */
export function webhookSignatureHeader(secret: string, unixSeconds: number, body: string): string {
  const v1 = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${v1}`;
}
