/**
 * Checks the `Packing-Signature` header of a webhook request (packing service),
 * for receivers. Pure: node:crypto only, no I/O; the clock comes in as `now`.
 *
 * Header: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, keyed with the endpoint's
 * secret (`whsec_…`, shown once when the endpoint was created). Several `v1=` entries may be
 * present; one matching is enough. Verify the raw body bytes exactly as received (before any JSON
 * parsing), then de-duplicate by the body's `id` (also in `Packing-Event-Id`): delivery is at
 * least once and a retry carries the same id.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** Why a signature was refused. */
export type WebhookSignatureFailure =
  /** The header is missing, or has no `t=` unix time or no `v1=` hex digest. */
  | 'malformed_header'
  /** No `v1=` entry is the HMAC of this body with this secret. */
  | 'signature_mismatch'
  /** `t` is further than `toleranceSeconds` from `now` (a replayed or delayed request). */
  | 'timestamp_outside_tolerance';

/** The outcome: `ok` with the signed time (unix s), or the reason of the refusal. */
export type WebhookSignatureResult = { ok: true; timestamp: number } | { ok: false; reason: WebhookSignatureFailure };

export interface VerifyOptions {
  /** Largest accepted distance between `t` and `now`, s (default 300). */
  toleranceSeconds?: number;
  /** The receiver's clock (default: the current time). */
  now?: Date;
}

/** Default tolerance between the signed time and the receiver's clock, s. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

/**
 * Verifies `header` for `rawBody` (the exact bytes or text received) with `secret`. Never throws
 * for bad input; answers `{ok: false, reason}` instead.
 */
export function verifyWebhookSignature(
  rawBody: string | Uint8Array,
  header: string | null | undefined,
  secret: string,
  { toleranceSeconds = DEFAULT_TOLERANCE_SECONDS, now = new Date() }: VerifyOptions = {},
): WebhookSignatureResult {
  if (typeof header !== 'string') return { ok: false, reason: 'malformed_header' };
  let timestamp: number | undefined;
  const digests: Buffer[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't' && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    else if (key === 'v1' && /^[0-9a-fA-F]{64}$/.test(value)) digests.push(Buffer.from(value, 'hex'));
  }
  if (timestamp === undefined || digests.length === 0) return { ok: false, reason: 'malformed_header' };
  const body =
    typeof rawBody === 'string'
      ? Buffer.from(rawBody, 'utf8')
      : Buffer.from(rawBody.buffer, rawBody.byteOffset, rawBody.byteLength);
  const expected = createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest();
  if (!digests.some((d) => timingSafeEqual(d, expected))) return { ok: false, reason: 'signature_mismatch' };
  if (Math.abs(Math.floor(now.getTime() / 1000) - timestamp) > toleranceSeconds)
    return { ok: false, reason: 'timestamp_outside_tolerance' };
  return { ok: true, timestamp };
}
