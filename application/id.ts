/** Random ids with the spec's prefixes (`job_`, `req_`, `usr_`, …): prefix + 24 base-32 characters. */
import { randomFillSync } from 'node:crypto';

const ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';
const ID_CHARS = 24;

// Random bytes are drawn from the CSPRNG 256 ids at a time (one call instead of one per id, as
// the request id of every HTTP request needs one); each byte is used once.
const pool = Buffer.alloc(ID_CHARS * 256);
let offset = pool.length;

/** A new random id `<prefix>_<24 chars>` (120 bits). */
export function newId(prefix: string): string {
  if (offset === pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  let out = `${prefix}_`;
  for (let i = 0; i < ID_CHARS; i++) out += ALPHABET[pool[offset + i]! % 32];
  offset += ID_CHARS;
  return out;
}
