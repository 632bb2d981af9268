/**
 * Concurrent retries with one Idempotency-Key (spec Endpoints, "Idempotency"), as a client behind
 * a flaky network sends them: `concurrency` identical POSTs released together, spread over one or
 * more API base URLs. Counts what the answers say and what the event log holds: jobs queued for
 * the organization, and per job its holds (JobAdmitted) and settlements (JobSettled) on the ledger.
 * Used by the concurrency suite (test/e2e/idempotency-concurrency.test.ts) and
 * `npm run bench -- idempotency` (scripts/bench-idempotency.ts).
 */
import { join } from 'node:path';
import { SqliteEventStore } from '../../adapters/sqlite/event-store.js';
import { createApiKey, provisionOrganization } from '../../application/provision.js';
import type { OrgLimits } from '../../domain/organization/limits.js';
import { ledgerStream } from '../../domain/ledger/streams.js';

/** A small job that ends in well under a second. */
export const RACE_BODY = {
  reference: 'idempotency-race',
  vehicles: [{ vehicle_id: 'rigid-7-5t' }],
  items: [{ id: 'carton', length: 60, width: 40, height: 40, weight: 12, quantity: 20 }],
  options: { time_limit: 20 },
};

/** One answer of a racing request. */
export interface RaceAnswer {
  status: number;
  jobId: string | null;
  replayed: boolean;
  code: string | null;
  retryAfter: string | null;
}

/** What a round gave: the answers, and the distinct job ids they name. */
export interface RaceRound {
  answers: RaceAnswer[];
  jobIds: string[];
}

/** POSTs `body` `concurrency` times at once to `path` with `idempotencyKey`, round-robin over `urls`. */
export async function raceOneKey(
  urls: string[],
  apiKey: string,
  idempotencyKey: string,
  concurrency: number,
  path = '/v1/pack',
  body: unknown = RACE_BODY,
): Promise<RaceRound> {
  const answers = await Promise.all(
    Array.from({ length: concurrency }, async (_, i): Promise<RaceAnswer> => {
      const res = await fetch(urls[i % urls.length]! + path, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${apiKey}`,
          'content-type': 'application/json',
          'idempotency-key': idempotencyKey,
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const parsed = (await res.json()) as { id?: string; error?: { code: string } };
      return {
        status: res.status,
        jobId: res.ok ? (parsed.id ?? null) : null,
        replayed: res.headers.get('idempotent-replayed') === 'true',
        code: parsed.error?.code ?? null,
        retryAfter: res.headers.get('retry-after'),
      };
    }),
  );
  return { answers, jobIds: [...new Set(answers.flatMap((a) => (a.jobId ? [a.jobId] : [])))] };
}

/** The organization's jobs as the event log holds them: queued jobs, and holds and settlements per job id. */
export interface LedgerCount {
  queuedJobIds: string[];
  admitted: Map<string, number>;
  settled: Map<string, number>;
}

/** Reads the log of the SQLite event store in `dataDir` for organization `orgId`. */
export async function countJobs(dataDir: string, orgId: string): Promise<LedgerCount> {
  const store = new SqliteEventStore(join(dataDir, 'events.db'));
  try {
    const admitted = new Map<string, number>();
    const settled = new Map<string, number>();
    for (const e of await store.readStream(ledgerStream(orgId))) {
      const jobId = (e.data as { jobId?: string }).jobId;
      if (!jobId) continue;
      if (e.type === 'JobAdmitted') admitted.set(jobId, (admitted.get(jobId) ?? 0) + 1);
      if (e.type === 'JobSettled') settled.set(jobId, (settled.get(jobId) ?? 0) + 1);
    }
    const queuedJobIds: string[] = [];
    for (let after = 0; ;) {
      const batch = await store.readAll(after, 5000);
      if (batch.length === 0) break;
      for (const e of batch)
        if (e.type === 'JobQueued' && (e.data as { orgId: string }).orgId === orgId)
          queuedJobIds.push((e.data as { jobId: string }).jobId);
      after = batch[batch.length - 1]!.position;
    }
    return { queuedJobIds, admitted, settled };
  } finally {
    await store.close();
  }
}

/** An organization to provision: its name, subscription credits (default 1,000) and limits. */
export interface RaceOrganization {
  name: string;
  credits?: number;
  limits?: Partial<OrgLimits>;
}

/**
 * Writes organizations (rate limits out of the way, room for 100 queued jobs) each with a key
 * with every scope straight into the SQLite event store of `dataDir`, as the admin command does
 * beside a live service; in the order given, so once the last key authenticates all do.
 */
export async function provisionRaceOrganizations(
  dataDir: string,
  orgs: RaceOrganization[],
): Promise<{ orgId: string; key: string }[]> {
  const store = new SqliteEventStore(join(dataDir, 'events.db'));
  try {
    const made: { orgId: string; key: string }[] = [];
    for (const o of orgs) {
      const now = new Date().toISOString();
      const org = await provisionOrganization(store, {
        name: o.name,
        ownerName: 'Owner',
        subscriptionCredits: o.credits ?? 1000,
        expiresAt: '2099-01-01T00:00:00.000Z',
        now,
        limits: {
          rateLimits: { perMinute: 100_000, perHour: 100_000, perDay: 100_000 },
          maxQueuedJobs: 100,
          ...o.limits,
        },
      });
      const key = await createApiKey(store, { orgId: org.orgId, memberId: org.ownerId, name: 'race', now });
      made.push({ orgId: org.orgId, key: key.secret });
    }
    return made;
  } finally {
    await store.close();
  }
}

/**
 * Resolves once `apiKey` authenticates at every one of `urls` (the read models have the new
 * organization); rejects after `timeoutMs`. Each look that fails is a failed authentication, which
 * the per-address limit counts (60 a minute): wait for the last of many new keys only, once.
 */
export async function awaitKey(urls: string[], apiKey: string, timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (const url of urls) {
    for (;;) {
      const res = await fetch(`${url}/v1/balance`, { headers: { authorization: `Bearer ${apiKey}` } });
      await res.arrayBuffer();
      if (res.status === 200) break;
      if (Date.now() > until)
        throw new Error(`the new key is not accepted at ${url} within ${timeoutMs} ms (last status ${res.status})`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}
