/**
 * The web app's sign-in limits (api/web-app/sign-in-limit.ts) over the real service behind a trusted
 * proxy (X-Forwarded-For names the client): failures from other addresses only delay the owner's
 * email, never lock the owner out; a pair that failed 5 times and an address that sprayed 100
 * failures get 429; delayed attempts are held at least the configured delay and cannot pile up.
 */
import t from 'tap';
import {
  FAILED_SIGN_INS_PER_ADDRESS,
  FAILED_SIGN_INS_PER_PAIR,
  FREE_FAILURES_PER_EMAIL,
  MAX_HELD_PER_EMAIL,
  signInDelayMs,
} from '../../api/web-app/sign-in-limit.js';
import { inProcessService, orgWithKey } from '../helpers/in-process-service.js';
import { acceptedMember } from '../helpers/web-session.js';

const DELAY_MS = 250;
const run = inProcessService(t, 'sign-in-limit', {
  trustProxy: 'loopback',
  signInDelays: { baseMs: DELAY_MS, maxMs: DELAY_MS },
});
// A longer hold where parallel requests must all arrive while the first is held (a loaded machine).
const HELD_MS = 1500;
const held = inProcessService(t, 'sign-in-held', {
  trustProxy: 'loopback',
  signInDelays: { baseMs: HELD_MS, maxMs: HELD_MS },
});
const PASSWORD = 'correct horse battery';

interface Tried {
  status: number;
  ms: number;
  code?: string;
  retryAfter: string | null;
}

/** POST /app/api/session for `email` from `address`; the status, the time it took (ms), the error code and Retry-After. */
async function signIn(email: string, password: string, address: string, service = run.service): Promise<Tried> {
  const started = performance.now();
  const res = await fetch(`${service.url}/app/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
    body: JSON.stringify({ email, password }),
  });
  const body = (await res.json()) as { error?: { code: string } };
  return {
    status: res.status,
    ms: performance.now() - started,
    retryAfter: res.headers.get('retry-after'),
    ...(body.error ? { code: body.error.code } : {}),
  };
}

/** An organization whose owner signs in as `email` with PASSWORD. */
async function owner(email: string, name: string, service = run.service): Promise<void> {
  const o = await orgWithKey(service, { name });
  await acceptedMember(service, o.orgId, email, { role: 'owner', password: PASSWORD });
}

t.test('the delay grows from the base by doubling after the free failures, up to the maximum', async (t) => {
  const delays = { baseMs: 1000, maxMs: 10_000 };
  const seen = Array.from({ length: 12 }, (_, failures) => signInDelayMs(failures, delays));
  t.same(seen, [0, 0, 0, 0, 0, 1000, 2000, 4000, 8000, 10_000, 10_000, 10_000]);
  t.equal(FREE_FAILURES_PER_EMAIL, 5);
  t.equal(signInDelayMs(10_000, delays), 10_000, 'no overflow for a long attack');
});

t.test(
  '30 failures for the owner from other addresses: the right password from a new address still signs in, after the delay',
  async (t) => {
    await owner('olga@example.com', 'Besieged');
    // Ten attacking addresses, three wrong passwords each (under the per-pair limit), all at once.
    const attackers = Array.from({ length: 10 }, (_, i) => `203.0.113.${i + 1}`);
    const rounds = await Promise.all(
      attackers.map(async (address) => {
        const statuses: Tried[] = [];
        for (let i = 0; i < 3; i++) statuses.push(await signIn('olga@example.com', `guess ${address} ${i}`, address));
        return statuses;
      }),
    );
    t.same(
      [...new Set(rounds.flat().map((r) => r.status))],
      [401],
      'every guess is answered 401 (delayed, not refused)',
    );
    const delayed = rounds.flat().filter((r) => r.ms >= DELAY_MS).length;
    t.ok(delayed >= 30 - FREE_FAILURES_PER_EMAIL, `${delayed} of 30 guesses were held at least ${DELAY_MS} ms`);

    const guess = await signIn('olga@example.com', 'one more guess', '198.51.100.200');
    t.equal(guess.status, 401);
    t.ok(guess.ms >= DELAY_MS, `a guess from a fresh address is held ${guess.ms.toFixed(0)} ms ≥ ${DELAY_MS} ms`);

    const right = await signIn('olga@example.com', PASSWORD, '198.51.100.201');
    t.equal(right.status, 200, 'the owner signs in from a new address');
    t.ok(right.ms >= DELAY_MS, `slowly: ${right.ms.toFixed(0)} ms`);
    const after = await signIn('OLGA@example.com', 'typo after signing in', '198.51.100.201');
    t.equal(after.status, 401, 'the success cleared the email: a later typo is an ordinary 401');
  },
);

t.test(`a pair that failed ${FAILED_SIGN_INS_PER_PAIR} times gets 429, for that pair only`, async (t) => {
  await owner('pia@example.com', 'Pair');
  const address = '192.0.2.10';
  for (let i = 0; i < FAILED_SIGN_INS_PER_PAIR; i++)
    t.equal((await signIn('pia@example.com', `wrong ${i}`, address)).status, 401, `failure ${i + 1}`);
  const limited = await signIn('pia@example.com', PASSWORD, address);
  t.same([limited.status, limited.code], [429, 'rate_limited'], 'even the right password, from that address');
  t.ok(
    Number(limited.retryAfter) > 800 && Number(limited.retryAfter) <= 900,
    `Retry-After ${limited.retryAfter} s (the 15-minute window)`,
  );
  t.equal(
    (await signIn('someone-else@example.com', 'whatever it is', address)).status,
    401,
    'another email from the same address is still checked',
  );
  t.equal(
    (await signIn('pia@example.com', PASSWORD, '192.0.2.11')).status,
    200,
    'the right password from another address signs in',
  );
});

t.test(
  `an address spraying ${FAILED_SIGN_INS_PER_ADDRESS} failures over many emails gets 429; other addresses do not`,
  async (t) => {
    await owner('sam@example.com', 'Spray');
    const sprayer = '192.0.2.66';
    const emails = Array.from({ length: FAILED_SIGN_INS_PER_ADDRESS }, (_, i) => `user${i}@spray.example`);
    const statuses = new Set<number>();
    for (let i = 0; i < emails.length; i += 10) {
      for (const r of await Promise.all(emails.slice(i, i + 10).map((e) => signIn(e, 'Winter2026!', sprayer))))
        statuses.add(r.status);
    }
    t.same([...statuses], [401], `${FAILED_SIGN_INS_PER_ADDRESS} failures answered 401`);
    const next = await signIn('sam@example.com', PASSWORD, sprayer);
    t.same([next.status, next.code], [429, 'rate_limited'], 'then the address is refused, even a right password');
    t.ok(Number(next.retryAfter) > 3000, `Retry-After ${next.retryAfter} s (the hour's window)`);
    t.equal((await signIn('sam@example.com', PASSWORD, '192.0.2.67')).status, 200, 'another address is not');
  },
);

t.test('an unknown email is held like a known one', async (t) => {
  for (let i = 0; i < FREE_FAILURES_PER_EMAIL; i++)
    t.equal((await signIn('ghost@example.com', `guess ${i}`, `203.0.113.${100 + i}`)).status, 401);
  const guess = await signIn('ghost@example.com', 'one more', '203.0.113.200');
  t.equal(guess.status, 401, 'the same answer as a wrong password');
  t.ok(guess.ms >= DELAY_MS, `held ${guess.ms.toFixed(0)} ms ≥ ${DELAY_MS} ms, like a known email`);
});

t.test(
  'held attempts cannot pile up: one per address and email, and a cap for addresses that failed before, never for a fresh one',
  async (t) => {
    const service = held.service;
    const tryHal = (password: string, address: string) => signIn('hal@example.com', password, address, service);
    await owner('hal@example.com', 'Held', service);
    const failed = Array.from({ length: MAX_HELD_PER_EMAIL + 1 }, (_, i) => `198.51.100.${i + 1}`);
    t.same(
      (await Promise.all(failed.map((address) => tryHal('first wrong guess', address)))).map((r) => r.status),
      failed.map(() => 401),
      'fresh addresses: held, never refused',
    );
    // The email is delayed now. Two attempts from one address at once: one is held and checked, the other refused.
    const twice = await Promise.all([tryHal('parallel a', '192.0.2.200'), tryHal('parallel b', '192.0.2.200')]);
    t.same(twice.map((r) => r.status).sort(), [401, 429], 'a second attempt in flight from the same address is 429');
    t.ok(
      twice.some((r) => r.status === 429 && r.retryAfter === '1'),
      'with Retry-After',
    );

    const burst = await Promise.all([
      ...failed.map((address) => tryHal('second wrong guess', address)),
      tryHal(PASSWORD, '192.0.2.201'),
    ]);
    const fresh = burst.pop()!;
    t.equal(fresh.status, 200, 'the owner from a fresh address is held and signs in, never refused');
    t.ok(fresh.ms >= HELD_MS, `after ${fresh.ms.toFixed(0)} ms`);
    const counts = burst.reduce<Record<number, number>>((c, r) => ({ ...c, [r.status]: (c[r.status] ?? 0) + 1 }), {});
    t.same(
      counts,
      { 401: MAX_HELD_PER_EMAIL, 429: 1 },
      `${MAX_HELD_PER_EMAIL} attempts from failed addresses are held, the next is refused`,
    );
  },
);
