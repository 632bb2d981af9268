/**
 * `npm run bench -- event-size [--compare]`: the events a large job's bodies make
 * (domain/job/body.ts) against the event store's MAX_APPEND_BYTES. For the largest legal
 * request (2,000 units, 255-character labels, every optional field; test/helpers/largest-job.ts),
 * the same with 70-character labels, and the plan of the largest job: the single plain event
 * earlier versions wrote (bytes as domain/ports/event-store.ts eventSize counts them), then the
 * events written now (how many, the largest), the compression ratio and the time to store
 * (encode and append to an in-memory SQLite store) and to read back (read and decode). `--compare` adds gzip and other Brotli qualities on the same JSON (one run each).
 */
import { performance } from 'node:perf_hooks';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { checkPackRequest, SCRIPT_CHECK_CONTEXT } from '../api/http/pack-request/check.js';
import { SqliteEventStore } from '../adapters/sqlite/event-store.js';
import { bodyEvents, readJobBody, storeJobRequest, storeJobResult } from '../domain/job/body.js';
import type { JobQueuedData } from '../domain/job/job.js';
import { eventSize, MAX_APPEND_BYTES } from '../domain/ports/event-store.js';
import { largestJobPlan, largestJobRequest } from '../test/helpers/largest-job.js';

/** Options of the `event-size` bench (as commander gives them). */
export interface EventSizeBenchOptions {
  compare?: boolean;
}

/** A body to measure: the kind it is stored as, and the value. */
interface Case {
  name: string;
  kind: 'request' | 'result';
  body: unknown;
}

function requestCase(name: string, labelLength: number): Case {
  const request = largestJobRequest({ labelLength });
  const checked = checkPackRequest(request, SCRIPT_CHECK_CONTEXT);
  if (!checked.ok) throw new Error(`${name}: not a legal request: ${JSON.stringify(checked.details.slice(0, 3))}`);
  const now = new Date().toISOString();
  const queued: JobQueuedData = {
    jobId: 'job_bench',
    orgId: 'org_bench',
    keyId: 'key_bench',
    memberId: 'usr_bench',
    source: 'api',
    reference: request.reference ?? null,
    createdAt: now,
    expiresAt: now,
    items: checked.items,
    maxVehicles: 20,
    budgetMs: 90_000,
    reservedMicros: 1,
    rateCardVersion: 1,
    warnings: checked.warnings,
  };
  return { name, kind: 'request', body: { request: checked.request, model: checked.model, queued } };
}

const fmt = (n: number): string => n.toLocaleString('en-US');

/** Runs the bench (prints its figures). */
export async function benchEventSize(o: EventSizeBenchOptions): Promise<void> {
  const largest = requestCase('request, 2,000 units, 255-char labels', 255);
  const cases: Case[] = [
    largest,
    requestCase('request, 2,000 units, 70-char labels', 70),
    {
      name: 'result, 2,000 units placed',
      kind: 'result',
      body: { plan: largestJobPlan(largestJobRequest()), warnings: [], strategy: 'synthetic' },
    },
  ];
  console.log(
    `limit per append (MAX_APPEND_BYTES): ${fmt(MAX_APPEND_BYTES)} bytes; EventStoreDB default MaxAppendSize 1,048,576`,
  );
  console.log(
    'case                                        plain event  JSON→brotli (ratio)          events  largest event   store ms  read ms',
  );
  const store = new SqliteEventStore(':memory:');
  let before = 0;
  let after = 0;
  try {
    let n = 0;
    for (const c of cases) {
      const jobId = `job_${++n}`;
      const plain = eventSize({
        id: `${jobId}:${c.kind}`,
        type: c.kind === 'request' ? 'RequestStored' : 'ResultStored',
        data: c.body,
      });
      const json = Buffer.byteLength(JSON.stringify(c.body));
      const t0 = performance.now();
      if (c.kind === 'request') await storeJobRequest(store, jobId, c.body as Parameters<typeof storeJobRequest>[2]);
      else await storeJobResult(store, jobId, c.body as Parameters<typeof storeJobResult>[2]);
      const storeMs = performance.now() - t0;
      const t1 = performance.now();
      await readJobBody(store, jobId, c.kind);
      const readMs = performance.now() - t1;
      const events = await bodyEvents(jobId, c.kind, c.body);
      const compressed = Math.floor(
        (events.reduce((s, e) => s + (e.data as { chunk: string }).chunk.length, 0) * 3) / 4,
      );
      const largestEvent = Math.max(...events.map(eventSize));
      before = Math.max(before, plain);
      after = Math.max(after, largestEvent);
      console.log(
        [
          c.name.padEnd(42),
          fmt(plain).padStart(12),
          `${fmt(json)}→${fmt(compressed)} (${(json / compressed).toFixed(2)}×)`.padStart(30),
          String(events.length).padStart(7),
          fmt(largestEvent).padStart(14),
          storeMs.toFixed(0).padStart(10),
          readMs.toFixed(0).padStart(8),
        ].join(' '),
      );
    }
  } finally {
    await store.close();
  }
  console.log(`largest event: ${fmt(before)} bytes before (one plain event per body), ${fmt(after)} bytes now`);
  if (o.compare) compare(cases);
}

/** gzip and Brotli settings side by side on each case's JSON: compressed bytes and ms. */
function compare(cases: readonly Case[]): void {
  const codecs: [string, (b: Buffer) => Buffer][] = [
    ['gzip 1', (b) => gzipSync(b, { level: 1 })],
    ['gzip 6', (b) => gzipSync(b, { level: 6 })],
    ['gzip 9', (b) => gzipSync(b, { level: 9 })],
    ...[4, 6, 9, 11].map((q): [string, (b: Buffer) => Buffer] => [
      `brotli ${q} (2^24 window)${q === 4 ? ', used' : ''}`,
      (b) =>
        brotliCompressSync(b, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: q,
            [constants.BROTLI_PARAM_LGWIN]: 24,
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            [constants.BROTLI_PARAM_SIZE_HINT]: b.length,
          },
        }),
    ]),
  ];
  console.log('\ncompression of the JSON (bytes, ms)');
  for (const c of cases) {
    const json = Buffer.from(JSON.stringify(c.body));
    console.log(`${c.name}: ${fmt(json.length)} bytes`);
    for (const [name, codec] of codecs) {
      const t0 = performance.now();
      const out = codec(json);
      console.log(
        `  ${name.padEnd(32)} ${fmt(out.length).padStart(12)} (${(json.length / out.length).toFixed(2)}×) ${(performance.now() - t0).toFixed(0).padStart(6)} ms`,
      );
    }
  }
}
