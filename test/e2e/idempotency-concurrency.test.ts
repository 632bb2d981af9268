/**
 * One Idempotency-Key, one job (spec Endpoints, "Idempotency"), through HTTP against a real
 * service process on the embedded profile: 20 rounds of 25 identical POST /v1/pack released
 * together with one key make exactly one job per round (every other answer a replay or a 503
 * idempotency_key_pending with Retry-After), one hold and one settlement per job; a key refused
 * for credits and retried after a top-up makes one new job; while an admission is stalled after
 * its claim, a retry gets `503 idempotency_key_pending` with Retry-After (the spec's retry rules
 * retry it); killed there, its claim is settled by the restart's start-up recovery, and the
 * first retry after the restart makes one job at once; 10 concurrent project packs make one job
 * (the rest `409 project_busy`, or replays with one key).
 */
import t from 'tap';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { SqliteEventStore } from '../../adapters/sqlite/event-store.js';
import { purchaseCredits } from '../../application/provision.js';
import {
  awaitKey,
  countJobs,
  provisionRaceOrganizations,
  raceOneKey,
  RACE_BODY,
  type LedgerCount,
  type RaceAnswer,
} from '../helpers/idempotency-race.js';
import { call, startServiceProcess, type ServiceProcess } from '../helpers/service-process.js';
import { nodeChild } from '../helpers/node-child.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
t.setTimeout(600_000);

const ROUNDS = 20;
const CONCURRENCY = 25;
/** The claim timeout this suite runs the service with, ms (default 30 s). */
const STALE_MS = 8000;
/** Wait for a pending claim of the same body before 503 idempotency_key_pending, ms (default 10 s). */
const WAIT_MS = 1500;
const SERVICE_ENV = {
  IDEMPOTENCY_PENDING_STALE_MS: String(STALE_MS),
  IDEMPOTENCY_PENDING_WAIT_MS: String(WAIT_MS),
  QUEUE_TIMEOUT_SECONDS: '8',
};

/** The service process of the first three tests. */
function started(): ServiceProcess {
  if (!service) throw new Error('the service is not running');
  return service;
}

/** Resolves once every job of `jobIds` is settled on the ledger of `orgId` (polled from the log); rejects after `timeoutMs`. */
async function untilSettled(
  dataDir: string,
  orgId: string,
  jobIds: string[],
  timeoutMs = 120_000,
): Promise<LedgerCount> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const counted = await countJobs(dataDir, orgId);
    if (jobIds.every((id) => counted.settled.has(id))) return counted;
    if (Date.now() > until)
      throw new Error(
        `jobs not settled within ${timeoutMs} ms: ${jobIds.filter((id) => !counted.settled.has(id)).join(', ')}`,
      );
    await new Promise((r) => setTimeout(r, 100));
  }
}

const dataDir = mkdtempSync(join(tmpdir(), 'packing-idempotency-'));
let service: ServiceProcess | undefined;
/** The organizations of the tests below: one per round, one without credits, one for projects. */
let orgs: {
  rounds: { orgId: string; key: string }[];
  broke: { orgId: string; key: string };
  projects: { orgId: string; key: string };
};
t.before(async () => {
  service = await startServiceProcess(dataDir, SERVICE_ENV);
  const made = await provisionRaceOrganizations(dataDir, [
    ...Array.from({ length: ROUNDS }, (_, i) => ({ name: `Race ${i + 1}` })),
    { name: 'Broke', credits: 0 },
    { name: 'Projects' },
  ]);
  // Written in order: once the last key authenticates, every one does.
  await awaitKey([service.url], made[made.length - 1]!.key);
  orgs = { rounds: made.slice(0, ROUNDS), broke: made[ROUNDS]!, projects: made[ROUNDS + 1]! };
});
t.teardown(async () => {
  await service?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

t.test(
  `${ROUNDS} rounds x ${CONCURRENCY} concurrent identical requests with one key: one job, one hold, one settlement each`,
  async (t) => {
    const rounds: { orgId: string; jobIds: string[] }[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const org = orgs.rounds[round - 1]!;
      const { answers, jobIds } = await raceOneKey([service!.url], org.key, `order-${round}`, CONCURRENCY);
      const created = answers.filter((a) => (a.status === 200 || a.status === 202) && !a.replayed);
      const replayed = answers.filter((a) => (a.status === 200 || a.status === 202) && a.replayed);
      const pending = answers.filter(
        (a) => a.status === 503 && a.code === 'idempotency_key_pending' && a.retryAfter !== null,
      );
      t.equal(jobIds.length, 1, `round ${round}: the answers name one job`);
      t.equal(created.length, 1, `round ${round}: one answer created it`);
      t.equal(
        replayed.length + pending.length,
        CONCURRENCY - 1,
        `round ${round}: every other answer is a replay or a 503 idempotency_key_pending with Retry-After`,
      );
      rounds.push({ orgId: org.orgId, jobIds });
    }
    for (const [i, round] of rounds.entries()) {
      const counted = await untilSettled(dataDir, round.orgId, round.jobIds);
      t.same(counted.queuedJobIds, round.jobIds, `round ${i + 1}: the log holds that one job`);
      t.same([...counted.admitted.entries()], [[round.jobIds[0], 1]], `round ${i + 1}: one hold`);
      t.same([...counted.settled.entries()], [[round.jobIds[0], 1]], `round ${i + 1}: one settlement`);
    }
  },
);

t.test(
  'a key refused for credits, retried after a top-up, makes one new job; a further retry replays it',
  async (t) => {
    const service = started();
    const org = orgs.broke;
    const refused = await raceOneKey([service.url], org.key, 'topped-up', 5);
    t.same(
      refused.answers.map((a) => a.code),
      Array(5).fill('insufficient_credits'),
      'every request is refused, none waits for ever',
    );
    t.same((await countJobs(dataDir, org.orgId)).admitted.size, 0, 'nothing held');

    const store = new SqliteEventStore(join(dataDir, 'events.db'));
    await purchaseCredits(store, org.orgId, 100, new Date().toISOString());
    await store.close();
    // The top-up is seen once the balance says so (the read models follow the log).
    for (const until = Date.now() + 20_000; ;) {
      const balance = await call(service.url, org.key, 'GET', '/v1/balance');
      if (balance.body.available_credits > 0) break;
      if (Date.now() > until) throw new Error('the top-up was not seen');
      await new Promise((r) => setTimeout(r, 50));
    }
    const retried = await raceOneKey([service.url], org.key, 'topped-up', 5);
    t.equal(retried.jobIds.length, 1, 'the retries after the top-up name one job');
    t.equal(retried.answers.filter((a) => a.status < 300 && !a.replayed).length, 1, 'one of them created it');
    const again = await raceOneKey([service.url], org.key, 'topped-up', 1);
    t.same(again.jobIds, retried.jobIds, 'a later retry replays it');
    t.equal(again.answers[0]!.replayed, true);
    const counted = await untilSettled(dataDir, org.orgId, retried.jobIds);
    t.same(counted.queuedJobIds, retried.jobIds, 'one job in the log');
    t.equal(counted.settled.get(retried.jobIds[0]!), 1, 'settled once');
  },
);

t.test(
  '10 concurrent packs of one project make one job: without a key the rest are project_busy, with one key the rest replay it',
  async (t) => {
    const service = started();
    const org = orgs.projects;
    for (const key of [null, 'project-order-7']) {
      const project = await call(service.url, org.key, 'POST', '/v1/projects', {
        name: `Dock ${key ?? 'no key'}`,
        vehicles: RACE_BODY.vehicles,
        items: [{ label: 'Carton', length: 60, width: 40, height: 40, weight: 12, quantity: 20 }],
        options: { time_limit: 20 },
      });
      t.equal(project.status, 201, 'project created');
      const path = `/v1/projects/${project.body.id}/pack`;
      const answers = await Promise.all(
        Array.from({ length: 10 }, () =>
          fetch(service.url + path, {
            method: 'POST',
            headers: { authorization: `Bearer ${org.key}`, ...(key ? { 'idempotency-key': key } : {}) },
          }).then(async (res) => ({
            status: res.status,
            replayed: res.headers.get('idempotent-replayed') === 'true',
            body: (await res.json()) as { id?: string; error?: { code: string } },
          })),
        ),
      );
      const jobIds = [...new Set(answers.flatMap((a) => (a.status < 300 && a.body.id ? [a.body.id] : [])))];
      t.equal(jobIds.length, 1, `${key ? 'one key' : 'no key'}: one job`);
      t.equal(
        answers.filter((a) => a.status < 300 && !a.replayed).length,
        1,
        `${key ? 'one key' : 'no key'}: one answer created it`,
      );
      if (key)
        t.equal(
          answers.filter((a) => a.replayed || (a.status === 503 && a.body.error?.code === 'idempotency_key_pending'))
            .length,
          9,
          'the rest replay it (or wait with 503 idempotency_key_pending)',
        );
      else
        t.same(
          answers.filter((a) => a.status >= 300).map((a) => a.body.error?.code),
          Array(9).fill('project_busy'),
          'the rest are project_busy',
        );
      await untilSettled(dataDir, org.orgId, jobIds);
    }
    const counted = await countJobs(dataDir, org.orgId);
    t.equal(counted.queuedJobIds.length, 2, 'two jobs for the two projects, no more');
  },
);

/**
 * Starts a service whose admissions stop after the claim (test/helpers/stalled-admission.ts),
 * posts once with `key`, runs `whileStalled` with the service's URL once the claim is stored, then
 * kills it (SIGKILL). Resolves with the key's stream.
 */
async function killAfterClaim(
  dir: string,
  apiKeyOf: () => string,
  key: string,
  whileStalled: (url: string) => Promise<void> = async () => {},
): Promise<string> {
  const child = spawn(...nodeChild(['--import', 'tsx', 'test/helpers/stalled-admission.ts', dir]), {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, IDEMPOTENCY_PENDING_WAIT_MS: String(WAIT_MS) },
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const lines = createInterface({ input: child.stdout });
  const next = (field: 'ready' | 'claimed'): Promise<string> =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`stalled-admission: no "${field}" line within 60 s`)), 60_000);
      lines.on('line', (line) => {
        if (!line.startsWith('{')) return; // the demo key's banner
        const entry = JSON.parse(line) as Record<string, string>;
        if (entry[field] !== undefined) {
          clearTimeout(timer);
          resolve(entry[field]);
        }
      });
    });
  const ready = next('ready');
  const url = await ready;
  const claimed = next('claimed');
  // The request never gets an answer: the process is killed while it waits for its hold.
  void fetch(`${url}/v1/pack`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKeyOf()}`, 'content-type': 'application/json', 'idempotency-key': key },
    body: JSON.stringify(RACE_BODY),
  }).catch(() => undefined);
  const stream = await claimed;
  await whileStalled(url);
  child.kill('SIGKILL');
  await exited;
  return stream;
}

/** The log entry of the restart's start-up recovery settling the claim on `stream`, if there is one. */
function settledAtStart(logs: readonly string[], stream: string): Record<string, unknown> | undefined {
  for (const line of logs) {
    if (!line.startsWith('{')) continue;
    const entry = JSON.parse(line) as Record<string, unknown>;
    if (
      entry['msg'] === 'settled an Idempotency-Key claim left pending by a request that stopped' &&
      entry['stream'] === stream
    )
      return entry;
  }
  return undefined;
}

t.test(
  'an admission stalled after its claim: a retry meanwhile gets 503 idempotency_key_pending; killed there, the restart settles the claim and the first retry makes one job',
  async (t) => {
    await service?.stop();
    service = undefined;
    const dir = mkdtempSync(join(tmpdir(), 'packing-idempotency-crash-'));
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    const demoKey = (): string => readFileSync(join(dir, 'demo-api-key'), 'utf8').trim();
    const made: string[] = [];

    for (const key of ['crash-1', 'crash-2']) {
      // 1. While the admission is stalled after its claim, a retry with the same key and body waits
      //    for it, then gets an answer the spec's retry rules retry.
      let meanwhile: RaceAnswer | undefined;
      const stream = await killAfterClaim(dir, demoKey, key, async (url) => {
        const started = Date.now();
        meanwhile = (await raceOneKey([url], demoKey(), key, 1)).answers[0];
        t.ok(Date.now() - started >= WAIT_MS, `${key}: the retry waited for the pending claim first`);
      });
      t.equal(meanwhile?.status, 503, `${key}: a retry during the stalled admission gets 503`);
      t.equal(meanwhile?.code, 'idempotency_key_pending');
      t.ok(Number(meanwhile?.retryAfter) >= 1, 'with Retry-After');

      // 2. The restart settles the claim the killed process left before it answers anything.
      const restarted = await startServiceProcess(dir, SERVICE_ENV);
      t.teardown(() => restarted.stop());
      t.match(
        settledAtStart(restarted.logs, stream),
        { outcome: 'released' },
        `${key}: the start-up recovery released the claim (its job never queued)`,
      );
      const retry = await raceOneKey([restarted.url], demoKey(), key, 1);
      t.same(
        retry.answers.map((a) => [a.status < 300, a.replayed]),
        [[true, false]],
        `${key}: the first retry after the restart makes the job, without waiting for the claim's timeout`,
      );
      const burst = await raceOneKey([restarted.url], demoKey(), key, 10);
      t.same(burst.jobIds, retry.jobIds, `${key}: further retries replay that one job`);
      t.ok(
        burst.answers.every((a) => a.replayed),
        `${key}: all ten are replays`,
      );
      made.push(...retry.jobIds);
      await restarted.stop();
    }

    const store = new SqliteEventStore(join(dir, 'events.db'));
    t.teardown(() => store.close());
    const orgId = (await store.readAll(0, 100)).find((e) => e.type === 'OrganizationCreated')!.data as {
      orgId: string;
    };
    const counted = await countJobs(dir, orgId.orgId);
    t.same(counted.queuedJobIds.sort(), [...made].sort(), 'two jobs for the two keys, none for the killed admissions');
    const voided = (await store.readAll(0, 100_000)).filter((e) => e.type === 'JobVoided');
    t.equal(voided.length, 2, 'both killed admissions are voided');
  },
);
