/**
 * What the use cases work through, handed in by their caller (the HTTP edge, the web app's
 * backend, the admin CLI, the scheduler): the event store, the read store, how far the read
 * models are (read-your-writes, DESIGN §3) and the clock. Nothing here knows HTTP: a refusal is
 * a DomainError (domain/errors.ts) with a code of the spec's Errors table; where a docstring says
 * "throws 409 conflict", the status is what the HTTP edge answers for that code
 * (api/http/error-status.ts).
 */
import type { EventStore } from '../domain/ports/event-store.js';
import type { ReadStore } from '../domain/ports/read-store.js';
import type { ReadModelProgress } from '../projections/progress.js';

/** The ports of a use case that writes events and waits for the read models to show them. */
export interface UseCasePorts {
  store: EventStore;
  reads: ReadStore;
  /** How far the read models are (projections/progress.ts): `waitFor` a write, `onApplied` to watch the log. */
  projections: ReadModelProgress;
  /** RFC 3339 now. */
  clock: () => string;
}

/** Where a use case reports what it worked around (a pino Logger fits). */
export interface UseCaseLog {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}
