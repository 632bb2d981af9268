/** The `Idempotency-Key` request header (spec Endpoints, "Idempotency"; POST /v1/pack and /v1/projects/{id}/pack). */
import { ApiError } from '../errors.js';

/** Longest Idempotency-Key, characters (spec Limits). */
export const MAX_IDEMPOTENCY_KEY = 128;

/** The `Idempotency-Key` header, or undefined; 400 idempotency_key_invalid when longer than 128. */
export function idempotencyKeyOf(raw: string | undefined): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  // Node hands header bytes over as latin1: decode UTF-8 so a character counts once.
  const header = Buffer.from(raw, 'latin1').toString('utf8');
  if (header.length > MAX_IDEMPOTENCY_KEY) {
    throw new ApiError(
      'idempotency_key_invalid',
      `Idempotency-Key must be at most ${MAX_IDEMPOTENCY_KEY} characters, got ${header.length}`,
      [
        {
          path: 'Idempotency-Key',
          code: 'out_of_range',
          message: `must be at most ${MAX_IDEMPOTENCY_KEY} characters, got ${header.length}`,
        },
      ],
    );
  }
  return header;
}
