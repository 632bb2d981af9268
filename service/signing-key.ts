/**
 * The PDF and viewer links' HMAC key (spec part 5, signed links): one per data dir, shared by every
 * API process of the dir, or read from the operator's file.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, linkSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The HMAC key of PDF links. Given a file, it must exist (all API replicas share it); else it is
 * made once per data dir and kept there. Processes sharing the dir start at the same moment, so
 * the key is written whole to a file of this process's own and then hard-linked into place: the
 * link either appears with the full key or fails with EEXIST, and no process ever reads a key
 * file that another is still writing (an exclusive create alone left a window where it was empty).
 * Returns the key bytes; throws when the file is missing, unreadable or holds under 32 hex digits.
 */
export function signingKey(dataDir: string, file?: string): Buffer {
  if (!file) {
    file = join(dataDir, 'signing-key');
    if (!existsSync(file)) makeKeyFile(file);
  }
  const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'hex');
  if (key.length < 16) throw new Error(`the PDF signing key in ${file} must be at least 32 hex digits`);
  return key;
}

/** Puts a new random key (64 hex digits) at `file` unless another process got there first. */
function makeKeyFile(file: string): void {
  const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(draft, randomBytes(32).toString('hex'), { mode: 0o600, flag: 'wx' });
  try {
    linkSync(draft, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    unlinkSync(draft);
  }
}
