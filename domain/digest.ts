/** SHA-256 as lower-case hex: how secrets, tokens and keys are stored and named (API keys, invitation and session tokens, Idempotency-Keys, credential streams). */
import { createHash } from 'node:crypto';

/** The SHA-256 of `text` (UTF-8), 64 lower-case hex characters. */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
