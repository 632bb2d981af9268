/** What the HTTP layer needs, built by the composition root (api/main.ts). */
import type { Logger } from 'pino';
import type { EventStore } from '../domain/ports/event-store.js';
import type { ReadStore } from '../domain/ports/read-store.js';
import type { ProjectionRunner } from '../projections/runner.js';

export interface Services {
  store: EventStore;
  reads: ReadStore;
  projections: ProjectionRunner;
  /** RFC 3339 now. */
  clock: () => string;
  log: Logger;
  /** HMAC key of signed PDF links. */
  signingKey: Buffer;
  /** Public base URL for links (e.g. https://api.example.com); default: from the request's Host. */
  publicBaseUrl?: string;
  /** Seed of new searches (tests fix it; default random per job). */
  seed?: () => number;
  isReady(): boolean;
}
