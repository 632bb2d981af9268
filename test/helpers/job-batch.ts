/**
 * A batch of jobs of varied sizes for the multi-process test and the solver-node benchmark: the
 * examples cycled (2 ms to about 2 s of compute each), submitted through several API processes
 * for several organizations, then awaited until every job has ended and been settled.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { call } from './service-process.js';

const EXAMPLES = fileURLToPath(new URL('../../examples/', import.meta.url));

/** One job of the batch: which example it is and its body. */
export interface BatchJob {
  example: string;
  body: Record<string, unknown>;
}

/**
 * `count` jobs: the examples in name order, cycled. With `timeLimitSeconds`, every job's
 * `options.time_limit` is that many seconds (the test keeps the machine's load down with it).
 */
export function jobBatch(count: number, timeLimitSeconds?: number): BatchJob[] {
  const files = readdirSync(EXAMPLES)
    .filter((f) => f.endsWith('.json'))
    .sort();
  return Array.from({ length: count }, (_, i) => {
    const example = files[i % files.length]!;
    const body = JSON.parse(readFileSync(join(EXAMPLES, example), 'utf8')) as Record<string, unknown>;
    if (timeLimitSeconds !== undefined)
      body['options'] = { ...(body['options'] as object | undefined), time_limit: timeLimitSeconds };
    return { example, body };
  });
}

/** A submitted job: its id, example, and the API process and key it was posted with. */
export interface Submitted {
  id: string;
  example: string;
  body: Record<string, unknown>;
  api: string;
  key: string;
  /** Status of `GET /v1/jobs/{id}` asked of another API process straight after the POST. */
  readElsewhere?: number;
}

/**
 * Posts every job (job i through `apis[⌊i/keys⌋ mod apis]` with key `keys[i mod keys]`), and
 * when `readElsewhere` asks the next API process for the job at once. Throws on a non-202/200.
 */
export async function submitBatch(
  jobs: BatchJob[],
  apis: string[],
  keys: string[],
  readElsewhere = false,
): Promise<Submitted[]> {
  const out: Submitted[] = [];
  for (const [i, job] of jobs.entries()) {
    const api = apis[Math.floor(i / keys.length) % apis.length]!;
    const key = keys[i % keys.length]!;
    const posted = await call(api, key, 'POST', '/v1/pack', job.body);
    if (posted.status !== 202 && posted.status !== 200)
      throw new Error(`POST /v1/pack answered ${posted.status}: ${JSON.stringify(posted.body)}`);
    const submitted: Submitted = { id: posted.body.id as string, example: job.example, body: job.body, api, key };
    if (readElsewhere) {
      const other = apis[(apis.indexOf(api) + 1) % apis.length]!;
      submitted.readElsewhere = (await call(other, key, 'GET', `/v1/jobs/${submitted.id}`)).status;
    }
    out.push(submitted);
  }
  return out;
}

const FINAL = ['succeeded', 'failed', 'canceled'];

/**
 * Waits (with `?wait=`) until every job is final and its charge settled; resolves with the
 * final Job bodies by id. Throws when one is not done within `timeoutMs`. Given `apis`, each job
 * is awaited through the API process after the one it was posted to.
 */
export async function awaitBatch(jobs: Submitted[], timeoutMs: number, apis?: string[]): Promise<Map<string, any>> {
  const deadline = Date.now() + timeoutMs;
  const done = new Map<string, any>();
  await Promise.all(
    jobs.map(async (job) => {
      // With `apis`, every job is awaited through another API process than the one it was posted to.
      const api = apis ? apis[(apis.indexOf(job.api) + 1) % apis.length]! : job.api;
      for (;;) {
        const got = await call(api, job.key, 'GET', `/v1/jobs/${job.id}?wait=20`);
        const body = got.body;
        if (FINAL.includes(body.status) && body.cost && typeof body.cost.credits === 'number' && body.finished_at) {
          // `?wait=` answers once the charge is settled; a final job read without it may not be.
          const settled = await call(api, job.key, 'GET', `/v1/jobs/${job.id}?wait=20`);
          done.set(job.id, settled.body);
          return;
        }
        if (Date.now() > deadline)
          throw new Error(`job ${job.id} (${job.example}) not done within ${timeoutMs} ms: ${JSON.stringify(body)}`);
      }
    }),
  );
  return done;
}
