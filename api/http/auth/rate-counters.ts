/**
 * Where the rate-limit counters live (several API processes share one count).
 * rate-limiter-flexible counters on: process memory (embedded profile, one process), a SQLite
 * file in the data dir (several processes on one machine sharing the SQLite event store), or
 * MongoDB (distributed profile).
 */
import { openPrivateDatabase } from '../../../adapters/sqlite/private-file.js';
import type { MongoClient } from 'mongodb';
import {
  RateLimiterMemory,
  RateLimiterMongo,
  RateLimiterSQLite,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';

/** A counter: `points` per window of `duration` seconds, keys under `keyPrefix`. */
export type RateCounterFactory = (options: {
  keyPrefix: string;
  points: number;
  duration: number;
}) => RateLimiterAbstract;

/** Counters in this process's memory. */
export const memoryCounters: RateCounterFactory = (options) => new RateLimiterMemory(options);

/**
 * Counters in the SQLite file `file` (WAL, mode 0600), shared by every process that opens it.
 * Returns the factory and a `close()` for the database.
 */
export function sqliteCounters(file: string): { factory: RateCounterFactory; close(): void } {
  const db = openPrivateDatabase(file, { timeout: 5000 });
  db.pragma('journal_mode = WAL');
  return {
    factory: (options) =>
      new RateLimiterSQLite({
        ...options,
        storeClient: db,
        storeType: 'better-sqlite3',
        tableName: `rate_${options.keyPrefix.replace(/[^A-Za-z0-9_]/g, '_')}`,
      }),
    close: () => db.close(),
  };
}

/** Counters in MongoDB database `dbName` (collection per counter, made by the library). */
export function mongoCounters(client: MongoClient, dbName: string): RateCounterFactory {
  return (options) => new RateLimiterMongo({ ...options, storeClient: client, dbName });
}
