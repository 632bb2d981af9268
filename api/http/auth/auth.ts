/**
 * Authentication (spec Authentication): `Authorization: Bearer <key>`, looked up by the SHA-256
 * hash of the secret, or without that header the web app's session cookie (api/web-app/web-session.ts);
 * request rates (api/http/auth/rate-limit.ts); then the organization's state and the key's scopes. Sets
 * `res.locals.caller` and the `X-RateLimit-*` and `X-Credits-Remaining` headers.
 *
 * Roles: a session has the scopes of its member's role (domain/organization scopesOfRole): the
 * owner every scope, a member `pack:write`, `jobs:read`, `resources:read` and `resources:write`.
 * A member asking for the owner's routes (webhooks, the account) gets 403 scope_missing saying
 * so. Every caller, members too, gets `X-Credits-Remaining`: the available credits decide whether
 * a member's job runs (the estimate shows them as well); the balance's make-up (subscription,
 * purchased, held), usage and billing stay the owner's (GET /v1/balance, /v1/usage).
 */
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { UseCasePorts } from '../../../application/ports.js';
import type { HttpPorts, SessionSettings } from '../context.js';
import { scopesOfRole, type Scope } from '../../../domain/organization/organization.js';
import type { ApiKeyDocument, OrganizationDocument } from '../../../projections/organizations/projection.js';
import { readApiKey, readOrganization } from '../../../projections/read-model-cache.js';
import { hashApiKey, isWellFormedKey, sameHash } from '../../../application/api-key.js';
import { ipAllowed } from '../../../application/ip-allowlist.js';
import { checkOrganizationApi } from './operator-switches.js';
import { clientAddress } from './trust-proxy.js';
import { ApiError } from '../errors.js';
import { ERROR_STATUS } from '../error-status.js';
import { setCreditsHeader } from '../jobs/credits-header.js';
import { readJsonBody } from '../body.js';
import { activeSession, checkCsrf, isUnsafeMethod, sessionTokenOf } from '../../web-app/web-session.js';
import { FAILED_AUTH_PER_MINUTE, rateLimitsOf, setRateHeaders } from './rate-limit.js';

/**
 * What authentication reads: API keys and sessions (ports; keys, organizations and the balance
 * through the process's read-model cache when it has one), the session cookie and CSRF settings,
 * the rate counters.
 */
export type AuthContext = UseCasePorts & SessionSettings & Pick<HttpPorts, 'rateCounters' | 'readCache'>;

/**
 * Who is calling: set by `authenticate` on `res.locals.caller`. `via`: an API key, or the web
 * app's session cookie (`keyId` is then the session's `ses_…` id, the scopes its member's role's).
 */
export interface Caller {
  orgId: string;
  keyId: string;
  via: 'api_key' | 'session';
  memberId: string;
  scopes: Scope[];
  org: OrganizationDocument;
}

export function callerOf(res: Response): Caller {
  return res.locals['caller'] as Caller;
}

/** The `source` of a job the caller creates: `playground` through the web app's session, else `api`. */
export const jobSourceOf = (caller: Caller): 'api' | 'playground' => (caller.via === 'session' ? 'playground' : 'api');

/**
 * The member of the request's session cookie, as a key-like identity with the scopes of the
 * member's role (scopesOfRole). Throws 401
 * unauthorized (no active session, or its member was removed) and, on an unsafe method, 403
 * forbidden without the session's CSRF token.
 */
async function identifySession(
  ctx: AuthContext,
  req: Request,
): Promise<{
  key: Pick<ApiKeyDocument, 'keyId' | 'orgId' | 'memberId' | 'scopes' | 'allowedIps'>;
  org: OrganizationDocument;
}> {
  const session = await activeSession(ctx, req);
  if (!session) throw new ApiError('unauthorized', 'the session has ended: sign in again');
  const org = await readOrganization(ctx, session.orgId);
  if (!org || !org.members[session.memberId])
    throw new ApiError('unauthorized', 'the session has ended: sign in again');
  if (isUnsafeMethod(req.method)) checkCsrf(ctx, req, session.sessionId);
  const scopes = [...scopesOfRole(org.members[session.memberId]!.role)];
  return {
    key: { keyId: session.sessionId, orgId: session.orgId, memberId: session.memberId, scopes, allowedIps: [] },
    org,
  };
}

/** What a scope a member's session lacks guards, for the 403 a member gets (roles). */
const OWNER_ONLY: Readonly<Record<Scope, string>> = {
  'account:read': "see the account's balance, usage and limits",
  'webhooks:read': 'see webhooks',
  'webhooks:write': 'manage webhooks',
  'pack:write': 'pack',
  'jobs:read': 'read jobs',
  'resources:read': 'read saved data',
  'resources:write': 'change saved data',
};

/** `Bearer <credential>`; the scheme is case-insensitive (RFC 7235 §2.1). */
const BEARER = /^Bearer +(\S+)$/i;

/** The credential of an Authorization header (the key a failure is counted against), '' when there is none. */
function presentedCredential(header: string): string {
  return BEARER.exec(header.trim())?.[1] ?? '';
}

/**
 * The key named by the `Authorization` header `header` and its organization at `now` (RFC 3339). Throws 401 unauthorized (missing,
 * malformed or unknown key), 401 key_revoked (revoked, or a secret replaced by rotation) or
 * 401 key_expired (past its expiry).
 */
async function identify(
  ctx: AuthContext,
  header: string,
  now: string,
): Promise<{ key: ApiKeyDocument; org: OrganizationDocument }> {
  const match = BEARER.exec(header);
  if (!match) throw new ApiError('unauthorized', 'send Authorization: Bearer <API key>');
  const secret = match[1]!;
  if (!isWellFormedKey(secret)) throw new ApiError('unauthorized', 'the API key is malformed');
  const hash = hashApiKey(secret);
  const key = await readApiKey(ctx, hash);
  if (!key || !sameHash(key.id, hash)) throw new ApiError('unauthorized', 'unknown API key');
  if (key.revoked)
    throw new ApiError(
      'key_revoked',
      key.rotated ? 'the API key was rotated: this secret no longer works' : 'the API key was revoked',
    );
  if (key.expiresAt && key.expiresAt <= now)
    throw new ApiError('key_expired', `the API key expired at ${key.expiresAt}`);
  const org = await readOrganization(ctx, key.orgId);
  if (!org) throw new ApiError('unauthorized', 'unknown API key');
  return { key, org };
}

/**
 * Middleware requiring a valid key with every scope in `scopes`. The caller's IP is the client
 * address (api/http/auth/trust-proxy.ts: the socket's peer, or what a TRUST_PROXY peer forwarded). Order:
 * the key (401s, each counted against the address and the presented key prefix: past 60 a
 * minute for the pair, or 600 for the address, the failure answers 429 rate_limited instead,
 * api/http/auth/rate-limit.ts; a valid key is never refused for failures); the key's IP allowlist (403 ip_not_allowed); the
 * organization's API switched off by the operator (503 api_disabled with Retry-After); the key's
 * and organization's request
 * rates (429 rate_limited with Retry-After; the `X-RateLimit-*` headers are set from here on);
 * organization and subscription state (403);
 * scopes (403 scope_missing).
 */
export function authenticate(ctx: AuthContext, ...scopes: Scope[]): RequestHandler {
  return authenticator(ctx, scopes, scopes);
}

/**
 * Like `authenticate` with `scopes`, except that a web app session passes with `sessionScopes`
 * instead (roles: GET /v1/limits asks a key for account:read, but a member's session that may
 * pack may read the limits and rate card that shape its requests; balance and usage stay the
 * owner's).
 */
export function authenticateOrSession(ctx: AuthContext, scopes: Scope[], sessionScopes: Scope[]): RequestHandler {
  return authenticator(ctx, scopes, sessionScopes);
}

function authenticator(ctx: AuthContext, keyScopes: readonly Scope[], sessionScopes: readonly Scope[]): RequestHandler {
  const rates = rateLimitsOf(ctx);
  return async (req: Request, res: Response, next: NextFunction) => {
    const ip = clientAddress(req);
    // One time for the whole authentication (key expiry, subscription, X-Credits-Remaining).
    const now = ctx.clock();
    // Without an Authorization header, the web app's session cookie identifies the caller.
    const authorization = req.headers.authorization;
    const bySession = authorization === undefined && sessionTokenOf(ctx, req) !== undefined;
    let identified: Awaited<ReturnType<typeof identifySession>>;
    try {
      identified = bySession ? await identifySession(ctx, req) : await identify(ctx, authorization ?? '', now);
    } catch (err) {
      // An ended session's cookie (a tab left open) is no guess at a secret: only keys count as failed authentications.
      if (!bySession && err instanceof ApiError && ERROR_STATUS[err.code] === 401) {
        const refused = await rates.recordFailedAuth(ip, presentedCredential(authorization ?? ''));
        if (refused) {
          setRateHeaders(res, refused);
          throw new ApiError(
            'rate_limited',
            `more than ${refused.limit} failed authentications in a minute from this address` +
              `${refused.limit === FAILED_AUTH_PER_MINUTE ? ' with this key' : ''} (${err.message}); retry after ${refused.retryAfter} s`,
          );
        }
      }
      throw err;
    }
    const { key, org } = identified;
    if (key.allowedIps && key.allowedIps.length > 0 && !ipAllowed(key.allowedIps, ip)) {
      throw new ApiError('ip_not_allowed', `the API key does not allow calls from ${ip}`);
    }
    checkOrganizationApi(res, org); // the operator switched the API off for this organization: 503
    // A session's requests count against its member (every session of theirs together).
    const rate = await rates.admit(bySession ? key.memberId : key.keyId, key.orgId, org.limits.rateLimits);
    setRateHeaders(res, rate);
    if (!rate.allowed) {
      throw new ApiError(
        'rate_limited',
        `rate limit of ${rate.limit} requests reached for this key or organization; retry after ${rate.retryAfter} s`,
      );
    }
    const hasOwner = Object.values(org.members).some((m) => m.role === 'owner');
    if (org.suspended || !hasOwner)
      throw new ApiError('account_inactive', 'the organization is suspended or has no active owner');
    const sub = org.subscription;
    if (!sub || !sub.active || !sub.apiAccess || (sub.expiresAt !== null && sub.expiresAt <= now)) {
      throw new ApiError('subscription_inactive', 'the organization has no active subscription that includes the API');
    }
    const missing = (bySession ? sessionScopes : keyScopes).filter((s) => !key.scopes.includes(s));
    if (missing.length > 0) {
      throw new ApiError(
        'scope_missing',
        bySession
          ? `members of an organization may not ${OWNER_ONLY[missing[0]!]}; ask its owner`
          : `the API key lacks the scope ${missing.join(' and ')}`,
      );
    }
    res.locals['caller'] = {
      orgId: key.orgId,
      keyId: key.keyId,
      via: bySession ? 'session' : 'api_key',
      memberId: key.memberId,
      scopes: key.scopes,
      org,
    } satisfies Caller;
    await setCreditsHeader(ctx, res, key.orgId, now);
    readJsonBody(req, res, next);
  };
}
