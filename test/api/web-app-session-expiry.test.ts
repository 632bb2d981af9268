/**
 * Session lifetimes with the service's clock moved forward: 2 h without use ends a
 * session, use keeps it alive (SessionRefreshed) but never past 12 h from its start; an expired
 * session is ended with reason `expired` (an event). Cookie attributes with and without TLS.
 */
import t from 'tap';
import type { Request } from 'express';
import { sessionStream } from '../../domain/session/streams.js';
import { WEB_SESSIONS, type WebSessionDocument } from '../../projections/sessions/projection.js';
import type { Services } from '../../api/http/services.js';
import { sessionCookieName, sessionTokenOf } from '../../api/web-app/web-session.js';
import { inProcessService, orgWithKey } from '../helpers/in-process-service.js';
import { acceptedMember, browserCall } from '../helpers/web-session.js';

const run = inProcessService(t, 'web-expiry');
const HOUR = 3600 * 1000;

/** Moves the service's clock `ms` ahead of the machine's until the test ends. */
function moveClock(t: { teardown(fn: () => void): void }, ms: () => number): void {
  const services = run.service.services;
  const real = services.clock;
  services.clock = () => new Date(Date.now() + ms()).toISOString();
  t.teardown(() => {
    services.clock = real;
  });
}

async function endReasons(sessionId: string): Promise<string[]> {
  const events = await run.service.services.store.readStream(sessionStream(sessionId));
  return events.filter((e) => e.type === 'SessionEnded').map((e) => (e.data as { reason: string }).reason);
}

t.test('2 h without use ends a session (SessionEnded expired)', async (t) => {
  const o = await orgWithKey(run.service, { name: 'Idle' });
  const { browser, session } = await acceptedMember(run.service, o.orgId, 'idle@example.com');
  const sessions = await run.service.services.reads
    .collection<WebSessionDocument>(WEB_SESSIONS)
    .find({ where: { memberId: session.user.id } });
  t.equal(sessions.length, 1);
  const sessionId = sessions[0]!.sessionId;
  let offset = 2 * HOUR - 60_000;
  moveClock(t, () => offset);
  t.equal(
    (await browserCall(run.service.url, browser, 'GET', '/app/api/session')).status,
    200,
    'used after 1 h 59 min: alive',
  );
  offset += 2 * HOUR - 60_000;
  t.equal((await browserCall(run.service.url, browser, 'GET', '/app/api/session')).status, 200, 'the use refreshed it');
  offset += 2 * HOUR + 60_000;
  t.equal(
    (await browserCall(run.service.url, browser, 'GET', '/app/api/session')).status,
    401,
    '2 h 1 min unused: ended',
  );
  t.same(await endReasons(sessionId), ['expired']);
});

t.test('use never keeps a session past 12 h', async (t) => {
  const o = await orgWithKey(run.service, { name: 'Long' });
  const { browser } = await acceptedMember(run.service, o.orgId, 'long@example.com');
  let offset = 0;
  moveClock(t, () => offset);
  for (let h = 1; h < 12; h++) {
    offset = h * HOUR;
    t.equal((await browserCall(run.service.url, browser, 'GET', '/app/api/session')).status, 200, `after ${h} h`);
  }
  offset = 12 * HOUR + 1000;
  const after = await browserCall(run.service.url, browser, 'GET', '/v1/balance');
  t.same([after.status, after.body.error.code], [401, 'unauthorized'], 'after 12 h');
});

t.test('the cookie: __Host- prefix and Secure only with TLS', async (t) => {
  const plain = { secureCookies: false } as Services;
  const tls = { secureCookies: true } as Services;
  t.equal(sessionCookieName(plain), 'session');
  t.equal(sessionCookieName(tls), '__Host-session');
  const token = 'a'.repeat(43);
  const req = (cookie: string) => ({ get: (h: string) => (h === 'cookie' ? cookie : undefined) }) as unknown as Request;
  t.equal(sessionTokenOf(tls, req(`session=${token}`)), undefined, 'with TLS the unprefixed cookie is not read');
  t.equal(sessionTokenOf(tls, req(`x=1; __Host-session=${token}`)), token);
  t.equal(sessionTokenOf(plain, req(`session=${token.slice(1)}`)), undefined, 'a malformed token is no token');
});
