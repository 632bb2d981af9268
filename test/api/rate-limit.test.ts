/**
 * Rate limits on the real embedded service (spec Limits rule 1, Authentication 5): headers on
 * authenticated answers counting down in the tightest window, 429 rate_limited with Retry-After
 * and nothing executed, per organization across keys, and the failed-authentication limits per
 * address and presented key prefix (60 a minute) and per address (600), which never refuse a
 * valid key.
 */
import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { startService, type RunningService } from '../../service/server.js';
import { createApiKey, provisionOrganization } from '../../application/provision.js';
import type { OrgLimits } from '../../domain/organization/limits.js';
import { JOBS, type JobDocument } from '../../projections/jobs/job-document.js';
import { call } from '../helpers/service-process.js';
import { solverThreadModule } from '../helpers/compiled-service.js';

const dir = mkdtempSync(join(tmpdir(), 'packing-rate-'));
let service: RunningService;
const small = {
  vehicles: [{ vehicle_id: 'rigid-7-5t' }],
  items: [{ id: 'carton', length: 60, width: 40, height: 40, weight: 12, quantity: 20 }],
};

async function org(rateLimits: OrgLimits['rateLimits']) {
  const now = new Date().toISOString();
  const o = await provisionOrganization(service.services.store, {
    name: 'R',
    ownerName: 'O',
    subscriptionCredits: 10,
    expiresAt: '2099-01-01T00:00:00.000Z',
    now,
    limits: { rateLimits },
  });
  const k1 = await createApiKey(service.services.store, { orgId: o.orgId, memberId: o.ownerId, name: 'one', now });
  const k2 = await createApiKey(service.services.store, { orgId: o.orgId, memberId: o.ownerId, name: 'two', now });
  await service.services.projections.waitFor(k2.position);
  return { ...o, key: k1.secret, key2: k2.secret };
}

const rate = (res: { headers: Headers }) => ({
  limit: Number(res.headers.get('x-ratelimit-limit')),
  remaining: Number(res.headers.get('x-ratelimit-remaining')),
  reset: Number(res.headers.get('x-ratelimit-reset')),
});

/** A GET with a chosen client address (this service trusts X-Forwarded-For from loopback: TRUST_PROXY=loopback). */
async function from(ip: string, key: string, path: string) {
  const res = await fetch(service.url + path, { headers: { authorization: `Bearer ${key}`, 'x-forwarded-for': ip } });
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}

t.before(async () => {
  service = await startService({
    solverThreadModule: solverThreadModule(),
    port: 0,
    host: '127.0.0.1',
    dataDir: dir,
    solverThreads: 1,
    log: pino({ level: 'silent' }),
    trustProxy: 'loopback',
  });
});
t.teardown(async () => {
  await service.close();
  rmSync(dir, { recursive: true, force: true });
});

t.test('perMinute 3: headers count down, the 4th request is 429 with Retry-After and runs nothing', async (t) => {
  const o = await org({ perMinute: 3, perHour: 1000, perDay: 5000 });
  const remaining: number[] = [];
  const resets: number[] = [];
  let firstSent = 0;
  let firstAnswered = 0;
  for (let i = 0; i < 3; i += 1) {
    const sent = Date.now() / 1000;
    const res = await call(service.url, o.key, 'GET', '/v1/balance');
    if (i === 0) [firstSent, firstAnswered] = [sent, Date.now() / 1000];
    t.equal(res.status, 200);
    const r = rate(res);
    t.equal(r.limit, 3, 'the minute window is the tightest');
    t.equal(res.headers.get('retry-after'), null);
    remaining.push(r.remaining);
    resets.push(r.reset);
  }
  t.same(remaining, [2, 1, 0]);
  // The window opens with the first request, whenever the server got to it on a busy machine.
  t.ok(
    resets[0]! >= Math.floor(firstSent) + 59 && resets[0]! <= Math.ceil(firstAnswered) + 60,
    `reset ${resets[0]} is the end of the minute opened by the first request (sent ${firstSent.toFixed(3)}, answered ${firstAnswered.toFixed(3)})`,
  );
  t.ok(
    resets.every((r) => Math.abs(r - resets[0]!) <= 1),
    `the three requests share one window: ${resets.join(', ')}`,
  );

  const refusedSent = Math.floor(Date.now() / 1000);
  const refused = await call(service.url, o.key, 'POST', '/v1/pack', small);
  const refusedAnswered = Math.ceil(Date.now() / 1000);
  t.equal(refused.status, 429);
  t.equal(refused.body.error.code, 'rate_limited');
  t.equal(refused.body.error.request_id, refused.headers.get('x-request-id'));
  const retryAfter = Number(refused.headers.get('retry-after'));
  t.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter} s`);
  t.same(rate(refused), { limit: 3, remaining: 0, reset: rate(refused).reset });
  const reset = rate(refused).reset;
  t.ok(
    reset >= refusedSent + retryAfter - 1 && reset <= refusedAnswered + retryAfter,
    `Reset ${reset} and Retry-After ${retryAfter} agree`,
  );
  const created = await service.services.reads.collection<JobDocument>(JOBS).find({ where: { orgId: o.orgId } });
  t.equal(created.length, 0, 'the refused POST /v1/pack created no job');

  const other = await call(service.url, o.key2, 'GET', '/v1/balance');
  t.equal(other.status, 429, "another key of the organization shares the organization's count");
  t.equal(other.body.error.code, 'rate_limited');

  const unaffected = await org({ perMinute: 60, perHour: 1000, perDay: 5000 });
  const res = await call(service.url, unaffected.key, 'GET', '/v1/balance');
  t.equal(res.status, 200, 'other organizations are counted apart');
  t.same([rate(res).limit, rate(res).remaining], [60, 59]);
});

t.test('the tightest window is reported: remaining, not size, decides', async (t) => {
  const o = await org({ perMinute: 100, perHour: 4, perDay: 5000 });
  const firstSent = Date.now() / 1000;
  const first = await call(service.url, o.key, 'GET', '/v1/limits');
  const firstAnswered = Date.now() / 1000;
  t.same([rate(first).limit, rate(first).remaining], [4, 3], 'the hour has fewer requests left than the minute');
  // The hour opened with this request, whenever the server got to it between sent and answered.
  t.ok(
    rate(first).reset >= Math.floor(firstSent) + 3600 && rate(first).reset <= Math.ceil(firstAnswered) + 3600,
    `reset ${rate(first).reset} at the end of the hour opened by the first request (sent ${firstSent.toFixed(3)}, answered ${firstAnswered.toFixed(3)})`,
  );
  await call(service.url, o.key2, 'GET', '/v1/limits');
  await call(service.url, o.key2, 'GET', '/v1/limits');
  const last = await call(service.url, o.key, 'GET', '/v1/limits');
  t.same([last.status, rate(last).remaining], [200, 0], 'the organization window counts both keys');
  const refused = await call(service.url, o.key, 'GET', '/v1/limits');
  const refusedAnswered = Date.now() / 1000;
  t.equal(refused.status, 429);
  // What is left of the hour, however long the five requests took: never only the minute.
  const retryAfter = Number(refused.headers.get('retry-after'));
  t.ok(
    retryAfter >= 3600 - Math.ceil(refusedAnswered - firstSent) && retryAfter <= 3600,
    `Retry-After ${retryAfter} s: wait for the hour to end (${(refusedAnswered - firstSent).toFixed(1)} s after it opened)`,
  );
});

t.test('errors after authentication carry the headers; unauthenticated ones do not', async (t) => {
  const o = await org({ perMinute: 60, perHour: 1000, perDay: 5000 });
  const missing = await call(service.url, o.key, 'GET', '/v1/jobs/job_nosuchjob');
  t.equal(missing.status, 404);
  t.same([rate(missing).limit, rate(missing).remaining], [60, 59]);
  const anonymous = await call(service.url, null, 'GET', '/v1/balance');
  t.equal(anonymous.status, 401);
  t.equal(anonymous.headers.get('x-ratelimit-limit'), null);
});

t.test(
  'more than 60 failed authentications a minute from one IP with one key: 429 for that key there; valid keys and other keys pass',
  async (t) => {
    const o = await org({ perMinute: 1000, perHour: 10_000, perDay: 50_000 });
    const bad = 'not-a-key';
    const otherBad = 'pk_live_ZZZZwrongwrongwrongwrongwrongwrongwrong';
    for (let i = 0; i < 60; i += 1) {
      const res = await from('203.0.113.7', bad, '/v1/balance');
      if (res.status !== 401) {
        t.fail(`attempt ${i + 1}: ${res.status}`);
        return;
      }
    }
    t.pass('60 failed attempts answer 401');
    const blocked = await from('203.0.113.7', bad, '/v1/balance');
    t.equal(blocked.status, 429);
    t.equal(blocked.body.error.code, 'rate_limited');
    const retryAfter = Number(blocked.headers.get('retry-after'));
    t.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter} s`);
    t.same([rate(blocked).limit, rate(blocked).remaining], [60, 0]);
    t.match(blocked.body.error.message, /more than 60 failed authentications .* with this key/);
    const goodKeySameIp = await from('203.0.113.7', o.key, '/v1/balance');
    t.equal(goodKeySameIp.status, 200, 'a valid key from that IP passes: another key failed, not it');
    const otherBadSameIp = await from('203.0.113.7', otherBad, '/v1/balance');
    t.equal(otherBadSameIp.status, 401, "another bad key from that IP is not counted with the first one's failures");
    const otherIp = await from('198.51.100.4', o.key, '/v1/balance');
    t.equal(otherIp.status, 200, 'other addresses are unaffected');
    const otherIpBadKey = await from('198.51.100.4', bad, '/v1/balance');
    t.equal(otherIpBadKey.status, 401);
  },
);

t.test(
  'more than 600 failed authentications a minute from one IP with ever new keys: 429 for its failures, never for a valid key',
  async (t) => {
    const o = await org({ perMinute: 1000, perHour: 10_000, perDay: 50_000 });
    const sprayed = (i: number): string => `pk_live_${String(i).padStart(4, '0')}${'x'.repeat(36)}`;
    const statuses = new Map<number, number>();
    for (let i = 0; i < 600; i += 1) {
      const res = await from('203.0.113.99', sprayed(i), '/v1/balance');
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    }
    t.same([...statuses], [[401, 600]], '600 failures with 600 prefixes answer 401');
    const next = await from('203.0.113.99', sprayed(600), '/v1/balance');
    t.equal(next.status, 429, 'the 601st failure from the address is refused, a new prefix or not');
    t.same([rate(next).limit, rate(next).remaining], [600, 0]);
    t.equal(
      (await from('203.0.113.99', o.key, '/v1/balance')).status,
      200,
      'a valid key from that address still passes',
    );
  },
);

t.test('the Bearer scheme is case-insensitive (RFC 7235)', async (t) => {
  const o = await org({ perMinute: 1000, perHour: 10_000, perDay: 50_000 });
  for (const scheme of ['Bearer', 'bearer', 'BEARER']) {
    const res = await fetch(`${service.url}/v1/balance`, { headers: { authorization: `${scheme} ${o.key}` } });
    await res.arrayBuffer();
    t.equal(res.status, 200, scheme);
  }
});
