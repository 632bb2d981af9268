/** Contract every EventStore adapter must honour (domain/ports/event-store.ts). */
import type { Test } from 'tap';
import {
  ConcurrencyError,
  EventTooLargeError,
  MAX_APPEND_BYTES,
  eventSize,
  type EventStore,
  type NewEvent,
  type RecordedEvent,
} from '../../domain/ports/event-store.js';
import { readJobBody, storeJobRequest, storeJobResult } from '../../domain/job/body.js';
import { jobBodyStream } from '../../domain/job/streams.js';
import type { JobQueuedData } from '../../domain/job/job.js';
import { checkPackRequest, SCRIPT_CHECK_CONTEXT } from '../../api/http/pack-request/check.js';
import { largestJobPlan, largestJobRequest } from '../helpers/largest-job.js';

const ev = (id: string, n: number) => ({ id, type: 'Happened', data: { n } });

/** An event of type `Padded` whose eventSize is exactly `bytes`. */
function sized(id: string, bytes: number): NewEvent {
  const empty = eventSize({ id, type: 'Padded', data: { pad: '' } });
  return { id, type: 'Padded', data: { pad: 'x'.repeat(bytes - empty) } };
}

export function eventStoreContract(t: Test, open: () => Promise<EventStore>): void {
  t.test('appends and reads a stream in order with revisions', async (t) => {
    const store = await open();
    const r1 = await store.append('s-a', [ev('a1', 1), ev('a2', 2)], 'no_stream');
    t.equal(r1.revision, 1);
    t.equal(r1.written, true);
    const r2 = await store.append('s-a', [ev('a3', 3)], 1);
    t.equal(r2.revision, 2);
    t.ok(r2.position > r1.position);
    const events = await store.readStream('s-a');
    t.same(
      events.map((e) => [e.id, e.revision, (e.data as { n: number }).n]),
      [
        ['a1', 0, 1],
        ['a2', 1, 2],
        ['a3', 2, 3],
      ],
    );
    t.same(
      (await store.readStream('s-a', 2)).map((e) => e.id),
      ['a3'],
    );
    t.same(await store.readStream('missing'), []);
    await store.close();
  });

  t.test('rejects a wrong expected revision with ConcurrencyError and writes nothing', async (t) => {
    const store = await open();
    await store.append('s-b', [ev('b1', 1)], 'no_stream');
    await t.rejects(store.append('s-b', [ev('b2', 2)], 'no_stream'), ConcurrencyError);
    await t.rejects(store.append('s-b', [ev('b3', 3)], 5), ConcurrencyError);
    await t.rejects(store.append('s-new', [ev('b4', 4)], 0), ConcurrencyError);
    t.equal((await store.readStream('s-b')).length, 1);
    t.same(await store.readStream('s-new'), []);
    await store.close();
  });

  t.test('an append repeated with the same event ids is a no-op returning the first position', async (t) => {
    const store = await open();
    const first = await store.append('s-c', [ev('c1', 1), ev('c2', 2)], 'no_stream');
    const again = await store.append('s-c', [ev('c1', 1), ev('c2', 2)], 'no_stream');
    t.equal(again.written, false);
    t.equal(again.position, first.position);
    t.equal((await store.readStream('s-c')).length, 2);
    t.equal(await store.headPosition(), first.position);
    await store.close();
  });

  t.test('readLastEvent returns the last event of a stream', async (t) => {
    const store = await open();
    t.equal(await store.readLastEvent('s-h'), undefined);
    await store.append('s-h', [ev('h1', 1), ev('h2', 2)], 'no_stream');
    await store.append('s-i', [ev('i1', 3)], 'no_stream');
    const last = await store.readLastEvent('s-h');
    t.same([last?.id, last?.revision], ['h2', 1]);
    await store.close();
  });

  t.test('deleteStream removes a stream for good; other streams stay and positions are never reused', async (t) => {
    const store = await open();
    const kept = await store.append('keep', [ev('k1', 1)], 'no_stream');
    await store.append('gone', [ev('g1', 2), ev('g2', 3)], 'no_stream');
    const head = await store.headPosition();
    t.equal(await store.deleteStream('gone'), 2);
    t.same(await store.readStream('gone'), []);
    t.equal(await store.readLastEvent('gone'), undefined);
    t.same(
      (await store.readAll(0, 10)).map((e) => e.id),
      ['k1'],
    );
    t.equal(
      await store.headPosition(),
      kept.position,
      'the head is the last event left, so a reader waiting for it finds it',
    );
    t.equal(await store.deleteStream('gone'), 0, 'deleting again deletes nothing');
    const next = await store.append('keep', [ev('k2', 4)], 0);
    t.ok(next.position > head, 'positions are never reused');
    await store.close();
  });

  t.test('readAll pages the global log after a position', async (t) => {
    const store = await open();
    await store.append('s-d', [ev('d1', 1)], 'any');
    await store.append('s-e', [ev('e1', 2)], 'any');
    await store.append('s-d', [ev('d2', 3)], 'any');
    const all = await store.readAll(0, 10);
    t.same(
      all.map((e) => e.id),
      ['d1', 'e1', 'd2'],
    );
    t.same(
      (await store.readAll(all[0]!.position, 1)).map((e) => e.id),
      ['e1'],
    );
    t.equal(await store.headPosition(), all[2]!.position);
    await store.close();
  });

  t.test('an append over MAX_APPEND_BYTES is refused with EventTooLargeError before anything is written', async (t) => {
    const store = await open();
    const exactly = sized('fits', MAX_APPEND_BYTES);
    t.equal(eventSize(exactly), MAX_APPEND_BYTES);
    const stored = await store.append('s-size', [exactly], 'no_stream');
    t.equal(stored.written, true, 'an event of exactly the limit is stored');
    t.equal(
      ((await store.readStream('s-size'))[0]!.data as { pad: string }).pad.length,
      (exactly.data as { pad: string }).pad.length,
    );
    const over = sized('over', MAX_APPEND_BYTES + 1);
    const err = await store.append('s-size', [over], 0).catch((e: unknown) => e);
    t.ok(err instanceof EventTooLargeError, 'one byte more is refused');
    t.match(err, { stream: 's-size', type: 'Padded', bytes: MAX_APPEND_BYTES + 1, limit: MAX_APPEND_BYTES });
    // The limit is per append: two events that fit alone do not fit together (EventStoreDB's MaxAppendSize).
    const half = (id: string) => sized(id, Math.ceil((MAX_APPEND_BYTES + 1) / 2));
    await t.rejects(store.append('s-size-2', [half('h1'), half('h2')], 'no_stream'), EventTooLargeError);
    t.same(
      (await store.readStream('s-size')).map((e) => e.id),
      ['fits'],
      'nothing of a refused append is stored',
    );
    t.same(await store.readStream('s-size-2'), []);
    await store.append('s-size-2', [half('h1')], 'no_stream');
    await store.append('s-size-2', [half('h2')], 0);
    t.equal((await store.readStream('s-size-2')).length, 2, 'the same events in two appends are stored');
    await store.close();
  });

  t.test(
    'the largest legal job (request, model, terms; a plan of every unit) is stored through body.ts and read back whole',
    async (t) => {
      const store = await open();
      const request = largestJobRequest();
      const checked = checkPackRequest(request, SCRIPT_CHECK_CONTEXT);
      if (!checked.ok) throw new Error(`the largest job is not legal: ${JSON.stringify(checked.details.slice(0, 3))}`);
      const queued = {
        jobId: 'job_largest',
        orgId: 'org_1',
        warnings: checked.warnings,
        items: checked.items,
      } as unknown as JobQueuedData;
      const requestBody = { request: checked.request, model: checked.model, queued };
      const resultBody = { plan: largestJobPlan(request), warnings: [], strategy: 'synthetic' };
      t.ok(
        Buffer.byteLength(JSON.stringify(requestBody)) > 4 * MAX_APPEND_BYTES,
        'the request body is several times the limit as plain JSON',
      );
      const first = await storeJobRequest(store, 'job_largest', requestBody);
      await storeJobResult(store, 'job_largest', resultBody);
      const events = await store.readStream(jobBodyStream('job_largest'));
      t.ok(events.length > 2, `split into ${events.length} events`);
      const sizes = events.map((e) => eventSize({ id: e.id, type: e.type, data: e.data, metadata: e.metadata }));
      t.ok(Math.max(...sizes) <= MAX_APPEND_BYTES, `each event within the limit (largest ${Math.max(...sizes)} bytes)`);
      const body = await readJobBody(store, 'job_largest');
      t.same(body.request, JSON.parse(JSON.stringify(requestBody)), 'request, model and terms as stored');
      t.same(body.result, JSON.parse(JSON.stringify(resultBody)), 'the plan as stored');
      const again = await storeJobRequest(store, 'job_largest', requestBody);
      await storeJobResult(store, 'job_largest', resultBody);
      t.same([again.written, again.position], [false, first.position], 'a retried store writes nothing');
      t.equal((await store.readStream(jobBodyStream('job_largest'))).length, events.length);
      t.equal(await store.deleteStream(jobBodyStream('job_largest')), events.length, 'retention deletes every chunk');
      t.same(await readJobBody(store, 'job_largest'), { request: null, result: null });
      await store.close();
    },
  );

  t.test('subscribeAll delivers stored then live events in order', async (t) => {
    const store = await open();
    await store.append('s-f', [ev('f1', 1)], 'any');
    const sub = store.subscribeAll(0);
    const seen: RecordedEvent[] = [];
    const done = (async () => {
      for await (const e of sub) {
        seen.push(e);
        if (seen.length === 3) break;
      }
    })();
    await store.append('s-f', [ev('f2', 2)], 'any');
    await store.append('s-g', [ev('g1', 3)], 'any');
    await done;
    t.same(
      seen.map((e) => e.id),
      ['f1', 'f2', 'g1'],
    );
    t.same(
      seen.map((e) => e.position),
      [...seen.map((e) => e.position)].sort((a, b) => a - b),
    );
    await store.close();
  });
}
