/**
 * API key secrets (spec Authentication 2): a fixed live prefix followed by 40 characters. Only
 * the SHA-256 hash is stored; lookups go by hash, and the stored hash is compared in constant time.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { sha256Hex } from '../domain/digest.js';

export const KEY_PREFIX = 'pk_live_';
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const KEY_PATTERN = /^pk_live_[A-Za-z0-9]{40}$/;

/** SHA-256 hex of a secret. */
export function hashApiKey(secret: string): string {
  return sha256Hex(secret);
}

/** A new secret with its hash and the display prefix (first 12 characters). */
export function generateApiKey(): { secret: string; hash: string; prefix: string } {
  const bytes = randomBytes(40);
  let body = '';
  // 248 = 4·62: rejection keeps the 62 characters equally likely.
  for (let i = 0; body.length < 40; i++) {
    const b = i < bytes.length ? bytes[i]! : randomBytes(1)[0]!;
    if (b < 248) body += ALPHABET[b % 62];
  }
  const secret = KEY_PREFIX + body;
  return { secret, hash: hashApiKey(secret), prefix: secret.slice(0, 12) };
}

/** True when `secret` has the key format. */
export function isWellFormedKey(secret: string): boolean {
  return KEY_PATTERN.test(secret);
}

/** Constant-time comparison of two hex hashes. */
export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}
