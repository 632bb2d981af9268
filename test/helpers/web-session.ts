/**
 * The web app's session in tests: calls with a session cookie and CSRF token, and
 * members signed in through an invitation (the way a person gets in).
 */
import type { RunningService } from '../../service/server.js';
import { issueInvitation } from '../../application/invitations.js';
import { provisionOrganization } from '../../application/provision.js';
import { serviceActor } from '../../domain/decider/actor.js';

/** A signed-in browser: its cookie header value and the session's CSRF token. */
export interface Browser {
  cookie: string;
  csrf: string;
}

/** An answer: status, headers and the parsed JSON body (undefined when empty). */
export interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

/**
 * Calls `path` as a browser would: with `browser`'s cookie and (unless `csrf` is given, '' for
 * none) its CSRF token, and `origin` as the Origin header when given.
 */
export async function browserCall(
  base: string,
  browser: Browser | null,
  method: string,
  path: string,
  body?: unknown,
  options: { csrf?: string; origin?: string } = {},
): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (browser) headers['cookie'] = browser.cookie;
  const csrf = options.csrf ?? browser?.csrf ?? '';
  if (csrf) headers['x-csrf-token'] = csrf;
  if (options.origin) headers['origin'] = options.origin;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(base + path, {
    method,
    headers,
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

/** The `name=value` of the Set-Cookie of an answer (throws when there is none). */
export function cookieOf(answer: Answer): string {
  const set = answer.headers.get('set-cookie');
  if (!set) throw new Error(`no Set-Cookie in the answer (${answer.status} ${JSON.stringify(answer.body)})`);
  return set.split(';')[0]!;
}

/** Invites `email` into `orgId` (as the operator does) and returns the token, after the read models have it. */
export async function invite(
  service: RunningService,
  orgId: string,
  email: string,
  role: 'owner' | 'member' = 'member',
  now = new Date().toISOString(),
): Promise<string> {
  const issued = await issueInvitation(service.services.store, {
    orgId,
    email,
    role,
    now,
    actor: serviceActor('admin'),
  });
  await service.services.projections.waitFor(issued.position);
  return issued.token;
}

/**
 * An organization made as `npm run admin -- create-org` does (100 subscription credits, no axle
 * access) and its owner's invitation for `email` (`invite --role owner`): the token to accept.
 */
export async function orgWithOwnerInvitation(
  service: RunningService,
  name: string,
  email: string,
): Promise<{ orgId: string; ownerId: string; token: string }> {
  const org = await provisionOrganization(service.services.store, {
    name,
    ownerName: 'Owner',
    subscriptionCredits: 100,
    expiresAt: '2099-01-01T00:00:00.000Z',
    now: new Date().toISOString(),
    axleAccess: false,
  });
  return { orgId: org.orgId, ownerId: org.ownerId, token: await invite(service, org.orgId, email, 'owner') };
}

/** Invites `email`, accepts with `password` and returns the signed-in browser and the session body. */
export async function acceptedMember(
  service: RunningService,
  orgId: string,
  email: string,
  options: { role?: 'owner' | 'member'; name?: string; password?: string } = {},
): Promise<{ browser: Browser; session: any }> {
  const token = await invite(service, orgId, email, options.role ?? 'member');
  const res = await browserCall(service.url, null, 'POST', `/app/api/invitations/${token}/accept`, {
    name: options.name ?? 'Ann',
    password: options.password ?? 'correct horse battery',
  });
  if (res.status !== 200) throw new Error(`accept: ${res.status} ${JSON.stringify(res.body)}`);
  return { browser: { cookie: cookieOf(res), csrf: res.body.csrf_token }, session: res.body };
}
