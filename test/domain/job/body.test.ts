/**
 * Job bodies on the embedded store (domain/job/body.ts, body-encoding.ts): compressed into one
 * head event when they fit, else chunk parts first and the head last; read back whole; bodies of
 * logs written before compression still read; retries add nothing; an incomplete or altered body
 * is never taken for a whole one.
 */
import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '../../../adapters/sqlite/event-store.js';
import {
  bodyEvents,
  CHUNK_CHARS,
  readJobBody,
  storeJobRequest,
  storeJobResult,
  type BodyChunk,
  type StoredRequest,
  type StoredResult,
} from '../../../domain/job/body.js';
import { BODY_ENCODING, decodeBody, encodeBody, JobBodyCorruptError } from '../../../domain/job/body-encoding.js';
import { jobBodyStream } from '../../../domain/job/streams.js';
import type { JobQueuedData } from '../../../domain/job/job.js';
import { eventSize, MAX_APPEND_BYTES } from '../../../domain/ports/event-store.js';
import { mulberry32 } from '../../../solver/search/prng.js';

const dir = mkdtempSync(join(tmpdir(), 'job-body-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const open = (): SqliteEventStore => new SqliteEventStore(join(dir, `b${++n}.db`));

const queued = { jobId: 'job_1', orgId: 'org_1', items: 3, warnings: [] } as unknown as JobQueuedData;
const smallRequest: StoredRequest = {
  request: {
    vehicles: [{ id: 'van', type: 'truck', length: 300, width: 180, height: 180, max_weight: 1000 }],
    items: [{ id: 'box', length: 60, width: 40, height: 40, weight: 10, quantity: 3 }],
  },
  model: { items: [], vehicles: [] } as unknown as StoredRequest['model'],
  queued,
};
const smallResult: StoredResult = { plan: { vehicles: [], unplaced: [] }, warnings: [], strategy: 'greedy' };

/** A result that compresses poorly: `chars` hex characters from a seeded PRNG in its strategy field. */
function bulkyResult(chars: number, seed = 1): StoredResult {
  const rng = mulberry32(seed);
  let hex = '';
  while (hex.length < chars)
    hex += Math.floor(rng() * 0xffffffff)
      .toString(16)
      .padStart(8, '0');
  return { plan: { vehicles: [], unplaced: [] }, warnings: [], strategy: hex.slice(0, chars) };
}

t.test('a body in the shape of logs written before compression reads as before', async (t) => {
  const store = open();
  t.teardown(() => store.close());
  // The single plain events every earlier version wrote (application/job-admission.ts, service/solver-node/job-records.ts).
  await store.append(
    jobBodyStream('job_old'),
    [{ id: 'job_old:request', type: 'RequestStored', data: smallRequest }],
    'any',
  );
  await store.append(
    jobBodyStream('job_old'),
    [{ id: 'job_old:result', type: 'ResultStored', data: smallResult }],
    'any',
  );
  t.same(await readJobBody(store, 'job_old'), { request: smallRequest, result: smallResult });
  t.same(await readJobBody(store, 'job_old', 'result'), { request: null, result: smallResult }, 'only the result');
  t.same(await readJobBody(store, 'job_old', 'request'), { request: smallRequest, result: null }, 'only the request');
  const retried = await storeJobRequest(store, 'job_old', smallRequest);
  t.equal(retried.written, false, 'a retry in the new shape finds the old event by its id');
  t.same(await readJobBody(store, 'job_old'), { request: smallRequest, result: smallResult });
});

t.test(
  'a body that fits is one compressed head event with the id of earlier versions; a retry writes nothing',
  async (t) => {
    const store = open();
    t.teardown(() => store.close());
    const first = await storeJobRequest(store, 'job_s', smallRequest);
    await storeJobResult(store, 'job_s', smallResult);
    const events = await store.readStream(jobBodyStream('job_s'));
    t.same(
      events.map((e) => [e.id, e.type]),
      [
        ['job_s:request', 'RequestStored'],
        ['job_s:result', 'ResultStored'],
      ],
    );
    t.match(events[0]!.data, {
      encoding: BODY_ENCODING,
      index: 0,
      count: 1,
      bytes: Buffer.byteLength(JSON.stringify(smallRequest)),
    });
    t.same(await readJobBody(store, 'job_s'), { request: smallRequest, result: smallResult });
    const again = await storeJobRequest(store, 'job_s', smallRequest);
    t.same([again.written, again.position], [false, first.position]);
    t.equal((await store.readStream(jobBodyStream('job_s'))).length, 2);
    t.same(await readJobBody(store, 'job_x'), { request: null, result: null }, 'no stream, no bodies');
  },
);

t.test('a body over the limit: parts first, head last, each event within the limit; read back whole', async (t) => {
  const store = open();
  t.teardown(() => store.close());
  const result = bulkyResult(2_600_000);
  const stored = await storeJobResult(store, 'job_b', result);
  const events = await store.readStream(jobBodyStream('job_b'));
  const head = events.at(-1)!;
  const { digest, count } = head.data as BodyChunk;
  t.ok(count >= 2, `${count} chunks`);
  t.same(
    events.map((e) => [e.id, e.type]),
    [
      ...Array.from({ length: count - 1 }, (_, i) => [
        `job_b:result:${digest.slice(0, 16)}:${i + 1}`,
        'ResultPartStored',
      ]),
      ['job_b:result', 'ResultStored'],
    ],
    'parts named by digest and index, then the head with the id of earlier versions',
  );
  t.equal(stored.position, head.position, 'the store resolves with the head');
  for (const e of events) t.ok(eventSize(e) <= MAX_APPEND_BYTES, `${e.id}: ${eventSize(e)} bytes`);
  t.ok(events.every((e) => (e.data as BodyChunk).chunk.length <= CHUNK_CHARS));
  t.same((await readJobBody(store, 'job_b')).result, result);

  const retried = await storeJobResult(store, 'job_b', result);
  t.same(
    [retried.written, (await store.readStream(jobBodyStream('job_b'))).length],
    [false, events.length],
    'a retry writes nothing',
  );
  // A retry with another body (e.g. a second solve): its parts are stored, its head is not; the first body stands.
  await storeJobResult(store, 'job_b', bulkyResult(2_600_000, 2));
  t.same((await readJobBody(store, 'job_b')).result, result, 'the first head decides');
});

t.test(
  'a body of 10 MB (the HTTP body limit) that hardly compresses is split into as many events as it needs',
  async (t) => {
    const store = open();
    t.teardown(() => store.close());
    const result = bulkyResult(10_000_000);
    await storeJobResult(store, 'job_10mb', result);
    const events = await store.readStream(jobBodyStream('job_10mb'));
    t.ok(events.length >= 6, `${events.length} events`);
    t.ok(events.every((e) => eventSize(e) <= MAX_APPEND_BYTES));
    t.same((await readJobBody(store, 'job_10mb')).result, result);
  },
);

t.test(
  'parts without their head are no body yet; a head without a part or with an altered chunk is an error',
  async (t) => {
    const store = open();
    t.teardown(() => store.close());
    const result = bulkyResult(2_600_000);
    const events = await bodyEvents('job_c', 'result', result);
    const parts = events.slice(0, -1);
    const head = events.at(-1)!;
    for (const p of parts) await store.append(jobBodyStream('job_c'), [p], 'any');
    t.same(await readJobBody(store, 'job_c'), { request: null, result: null }, 'stopped before the head: not stored');
    await storeJobResult(store, 'job_c', result);
    t.same((await readJobBody(store, 'job_c')).result, result, 'the retry completes it without rewriting the parts');
    t.equal((await store.readStream(jobBodyStream('job_c'))).length, events.length);

    await store.append(jobBodyStream('job_d'), [{ ...head, id: 'job_d:result' }], 'any');
    await t.rejects(readJobBody(store, 'job_d'), JobBodyCorruptError, 'a head whose parts are missing');
    const part = parts[0]!;
    const data = part.data as BodyChunk;
    await store.append(
      jobBodyStream('job_e'),
      [{ ...part, id: 'job_e:p1', data: { ...data, chunk: `AAAA${data.chunk.slice(4)}` } }],
      'any',
    );
    await store.append(jobBodyStream('job_e'), [{ ...head, id: 'job_e:result' }], 'any');
    await t.rejects(readJobBody(store, 'job_e'), JobBodyCorruptError, 'a chunk that does not match the digest');
  },
);

t.test(
  'encoding: deterministic, whole base64 per chunk, smaller than the JSON; decoding checks the digest',
  async (t) => {
    const value = { text: 'pallet '.repeat(10_000), n: [1, 2.5, null, true] };
    const a = await encodeBody(value, 41);
    const b = await encodeBody(value, 41);
    t.same(a, b, 'the same value gives the same chunks (ids of parts stay the same on a retry)');
    t.ok(
      a.chunks.length > 1 && a.chunks.slice(0, -1).every((c) => c.length === 40),
      'chunks of 40 characters (whole base64 quads), not 41',
    );
    t.ok(a.chunks.at(-1)!.length <= 40);
    t.ok(a.chunks.join('').length < JSON.stringify(value).length / 20, 'repetitive text compresses well');
    t.same(await decodeBody(a.encoding, a.digest, a.chunks), value);
    await t.rejects(decodeBody(a.encoding, '0'.repeat(64), a.chunks), JobBodyCorruptError);
    await t.rejects(decodeBody('gzip', a.digest, a.chunks), JobBodyCorruptError);
    await t.rejects(encodeBody(value, 3), RangeError);
    t.same((await encodeBody('', 8)).chunks.length, 1, 'a tiny body is one chunk');
  },
);
