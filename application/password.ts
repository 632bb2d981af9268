/**
 * Password hashes of the web app's sign-in: scrypt from node:crypto (memory-hard),
 * stored with its algorithm, parameters and salt (domain/credential PasswordHash), compared in
 * constant time. New hashes use the service's configured cost (ServiceConfig `passwordCost`),
 * by default DEFAULT_PASSWORD_COST (N = 2^15, r = 8, p = 1: 32 MiB and a few tens of ms per
 * hash); a check always uses the parameters stored with the hash, so hashes made at another cost
 * keep working after the setting changes.
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import type { PasswordHash } from '../domain/credential/credential.js';

/** scrypt's cost of a new hash: N (CPU/memory cost, a power of two ≥ 2), r (block size), p (parallelism). */
export interface PasswordCost {
  N: number;
  r: number;
  p: number;
}

/** The production cost of new hashes: N = 2^15, r = 8, p = 1 (32 MiB). */
export const DEFAULT_PASSWORD_COST: Readonly<PasswordCost> = Object.freeze({ N: 2 ** 15, r: 8, p: 1 });
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

/**
 * Throws RangeError unless `cost` is one scrypt accepts: N a power of two ≥ 2, r and p whole
 * numbers ≥ 1. Returns `cost`.
 */
export function checkedPasswordCost(cost: PasswordCost): PasswordCost {
  const { N, r, p } = cost;
  if (!Number.isInteger(N) || N < 2 || (N & (N - 1)) !== 0)
    throw new RangeError(`scrypt N must be a power of two ≥ 2, got ${N}`);
  if (!Number.isInteger(r) || r < 1) throw new RangeError(`scrypt r must be a whole number ≥ 1, got ${r}`);
  if (!Number.isInteger(p) || p < 1) throw new RangeError(`scrypt p must be a whole number ≥ 1, got ${p}`);
  return cost;
}

/** A new hash of `password` with a fresh random salt, at `cost` (default DEFAULT_PASSWORD_COST). */
export async function hashPassword(
  password: string,
  cost: PasswordCost = DEFAULT_PASSWORD_COST,
): Promise<PasswordHash> {
  const salt = randomBytes(SALT_BYTES);
  const { N, r, p } = cost;
  const key = await derive(password, salt, { N, r, p }, KEY_LENGTH);
  return {
    algorithm: 'scrypt',
    N,
    r,
    p,
    keyLength: KEY_LENGTH,
    salt: salt.toString('base64'),
    hash: key.toString('base64'),
  };
}

/**
 * Hashes of nothing anyone knows, one per cost ("N/r/p"): checked against when an email is
 * unknown, so both cases take as long as a hash made at the service's cost.
 */
const decoys = new Map<string, Promise<PasswordHash>>();

function decoyOf(cost: PasswordCost): Promise<PasswordHash> {
  const id = `${cost.N}/${cost.r}/${cost.p}`;
  let decoy = decoys.get(id);
  if (!decoy) {
    decoy = hashPassword(randomBytes(32).toString('hex'), cost);
    decoys.set(id, decoy);
  }
  return decoy;
}

/**
 * True when `password` matches `stored` (with the parameters stored with it, whatever `cost`
 * is). With `stored` null (unknown email) a decoy hash made at `cost` (the cost of the service's
 * new hashes, default DEFAULT_PASSWORD_COST) is checked and the answer is false.
 */
export async function verifyPassword(
  password: string,
  stored: PasswordHash | null,
  cost: PasswordCost = DEFAULT_PASSWORD_COST,
): Promise<boolean> {
  const against = stored ?? (await decoyOf(cost));
  if (against.algorithm !== 'scrypt') return false;
  const expected = Buffer.from(against.hash, 'base64');
  const key = await derive(password, Buffer.from(against.salt, 'base64'), against, expected.length);
  return timingSafeEqual(key, expected) && stored !== null;
}
