/**
 * Web app sessions at the HTTP edge: the cookie, the session behind it, its CSRF token.
 * - Cookie `session` (or `__Host-session` with `Secure` when the service runs with TLS or a
 *   https public URL): a random 256-bit token, HttpOnly, SameSite=Lax, Path=/, Max-Age 12 h.
 *   Only its SHA-256 is stored (SessionStarted, read model `web_sessions`).
 * - A session ends after 12 h, or 2 h without use (SessionEnded `expired`, written when it is
 *   next presented), at sign-out (`signed_out`) or when its member is removed (`member_removed`).
 * - CSRF: a synchronizer token per session, HMAC-SHA256 of the session id under the service's
 *   signing key, sent back by the web app in `X-CSRF-Token` on unsafe methods and compared in
 *   constant time (403 forbidden when missing or wrong).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Request, Response } from 'express';
import { handleCommand } from '../../domain/decider/handle.js';
import {
  SESSION_IDLE_MS,
  SESSION_LIFETIME_MS,
  SESSION_REFRESH_MS,
  sessionDecider,
} from '../../domain/session/session.js';
import { sessionStream } from '../../domain/session/streams.js';
import type { WebSessionDocument } from '../../projections/sessions/projection.js';
import { readWebSession } from '../../projections/read-model-cache.js';
import { ApiError } from '../http/errors.js';
import { endSession, sessionTokenHash } from '../../application/sessions.js';
import type { UseCasePorts } from '../../application/ports.js';
import type { HttpPorts, HttpSettings } from '../http/context.js';

/** Methods that change nothing (no CSRF token needed). */
const SAFE_METHODS = new Set(['GET', 'HEAD']);

/** True for methods that need the CSRF token (everything but GET and HEAD). */
export const isUnsafeMethod = (method: string): boolean => !SAFE_METHODS.has(method.toUpperCase());

/** The session cookie's name: `__Host-session` when cookies are Secure, else `session`. */
export const sessionCookieName = (ctx: Pick<HttpSettings, 'secureCookies'>): string =>
  ctx.secureCookies ? '__Host-session' : 'session';

const hashToken = sessionTokenHash;
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** The session token in the request's Cookie header, or undefined. */
export function sessionTokenOf(ctx: Pick<HttpSettings, 'secureCookies'>, req: Request): string | undefined {
  const name = sessionCookieName(ctx);
  for (const part of (req.get('cookie') ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    const value = part.slice(eq + 1).trim();
    if (TOKEN_PATTERN.test(value)) return value;
  }
  return undefined;
}

function cookie(ctx: Pick<HttpSettings, 'secureCookies'>, value: string, maxAgeSeconds: number): string {
  const parts = [
    `${sessionCookieName(ctx)}=${value}`,
    'Path=/',
    'HttpOnly',
    'SameSite=Lax',
    `Max-Age=${maxAgeSeconds}`,
  ];
  if (ctx.secureCookies) parts.push('Secure');
  return parts.join('; ');
}

/** Sets the session cookie (lives as long as the session can). */
export function setSessionCookie(ctx: Pick<HttpSettings, 'secureCookies'>, res: Response, token: string): void {
  res.append('Set-Cookie', cookie(ctx, token, SESSION_LIFETIME_MS / 1000));
  res.setHeader('Cache-Control', 'no-store');
}

/** Clears the session cookie in the browser. */
export function clearSessionCookie(ctx: Pick<HttpSettings, 'secureCookies'>, res: Response): void {
  res.append('Set-Cookie', cookie(ctx, '', 0));
}

/** The CSRF token of a session (same for its whole life). */
export function csrfTokenOf(ctx: Pick<HttpSettings, 'signingKey'>, sessionId: string): string {
  return createHmac('sha256', ctx.signingKey).update(`csrf:${sessionId}`).digest('base64url');
}

/** Throws 403 forbidden unless the request's `X-CSRF-Token` is the session's (constant-time comparison). */
export function checkCsrf(ctx: Pick<HttpSettings, 'signingKey'>, req: Request, sessionId: string): void {
  const sent = Buffer.from(req.get('x-csrf-token') ?? '');
  const expected = Buffer.from(csrfTokenOf(ctx, sessionId));
  if (sent.length !== expected.length || !timingSafeEqual(sent, expected)) {
    throw new ApiError('forbidden', "send the session's CSRF token in X-CSRF-Token (from GET /app/api/session)");
  }
}

/**
 * The active session of the request's cookie, or null (no cookie, unknown, ended, or expired:
 * an expired one is ended now with reason `expired`). A use more than 5 min after the last
 * recorded one is recorded (SessionRefreshed).
 */
export async function activeSession(
  ctx: UseCasePorts & Pick<HttpSettings, 'secureCookies'> & Pick<HttpPorts, 'readCache'>,
  req: Request,
): Promise<WebSessionDocument | null> {
  const token = sessionTokenOf(ctx, req);
  if (!token) return null;
  const session = await readWebSession(ctx, hashToken(token)); // the process's read-model cache when it has one
  if (!session || session.endedAt !== null) return null;
  const now = ctx.clock();
  const nowMs = Date.parse(now);
  if (session.expiresAt <= now || Date.parse(session.lastSeenAt) + SESSION_IDLE_MS <= nowMs) {
    await endSession(ctx, session.sessionId, 'expired');
    return null;
  }
  if (Date.parse(session.lastSeenAt) + SESSION_REFRESH_MS <= nowMs) {
    // Nothing in this request reads the refreshed time back: no wait for the read model.
    await handleCommand(ctx.store, sessionStream(session.sessionId), sessionDecider, {
      type: 'RefreshSession',
      data: {},
      metadata: { now, actor: { id: session.memberId, name: session.memberId } },
    });
    return { ...session, lastSeenAt: now };
  }
  return session;
}
