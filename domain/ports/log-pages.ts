/**
 * Reading the whole global log through the event store port, page by page (the audit replay, the
 * admin listing, tests): every event after `after`, in log order.
 */
import type { EventStore, RecordedEvent } from './event-store.js';

/** Events per page read from the store. */
const PAGE = 5000;

/** Every event after position `after` (default 0), in order, read `PAGE` at a time. */
export async function* logEvents(store: EventStore, after = 0): AsyncGenerator<RecordedEvent> {
  for (let position = after; ;) {
    const page = await store.readAll(position, PAGE);
    if (page.length === 0) return;
    yield* page;
    position = page[page.length - 1]!.position;
  }
}

/** Every event after position `after` (default 0), in order, as one array. */
export async function readLog(store: EventStore, after = 0): Promise<RecordedEvent[]> {
  const events: RecordedEvent[] = [];
  for await (const e of logEvents(store, after)) events.push(e);
  return events;
}
