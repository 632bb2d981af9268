/**
 * Password hashes of the web app's sign-in: scrypt from node:crypto (memory-hard),
 * stored with its algorithm, parameters and salt (domain/credential PasswordHash), compared in
 * constant time. N = 2^15, r = 8, p = 1: 32 MiB and a few tens of ms per hash.
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import type { PasswordHash } from '../domain/credential/credential.js';

const COST = { N: 2 ** 15, r: 8, p: 1 } as const;
const KEY_LENGTH = 64;
const SALT_BYTES = 16;

/** Shortest and longest password accepted, characters. */
export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 200;

function derive(
  password: string,
  salt: Buffer,
  cost: { N: number; r: number; p: number },
  keyLength: number,
): Promise<Buffer> {
  // scrypt needs 128·N·r bytes; allow twice that.
  const options: ScryptOptions = { ...cost, maxmem: 256 * cost.N * cost.r };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, keyLength, options, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

/** A new hash of `password` with a fresh random salt. */
export async function hashPassword(password: string): Promise<PasswordHash> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, COST, KEY_LENGTH);
  return {
    algorithm: 'scrypt',
    ...COST,
    keyLength: KEY_LENGTH,
    salt: salt.toString('base64'),
    hash: key.toString('base64'),
  };
}

/** A hash of nothing anyone knows: checked against when an email is unknown, so both cases take as long. */
let decoy: Promise<PasswordHash> | undefined;

/**
 * True when `password` matches `stored` (with the parameters stored with it). With `stored`
 * null (unknown email) a decoy hash is checked and the answer is false.
 */
export async function verifyPassword(password: string, stored: PasswordHash | null): Promise<boolean> {
  const against = stored ?? (await (decoy ??= hashPassword(randomBytes(32).toString('hex'))));
  if (against.algorithm !== 'scrypt') return false;
  const expected = Buffer.from(against.hash, 'base64');
  const key = await derive(password, Buffer.from(against.salt, 'base64'), against, expected.length);
  return timingSafeEqual(key, expected) && stored !== null;
}
