/** Random ids with the spec's prefixes (`job_`, `req_`, `usr_`, …): prefix + 24 base-32 characters. */
import { randomBytes } from 'node:crypto';

const ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';

/** A new random id `<prefix>_<24 chars>` (120 bits). */
export function newId(prefix: string): string {
  const bytes = randomBytes(24);
  let out = '';
  for (const b of bytes) out += ALPHABET[b % 32];
  return `${prefix}_${out}`;
}
