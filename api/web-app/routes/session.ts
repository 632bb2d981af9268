/**
 * The web app's session routes (the web app's own API, not in the OpenAPI document):
 * - GET /app/api/session → 200 {user, organization, csrf_token}, 401 unauthorized when not signed in;
 * - POST /app/api/session {email, password} → 200 the same and the session cookie; 401
 *   unauthorized "wrong email or password"; 429 rate_limited and growing delays per email
 *   (api/web-app/sign-in-limit.ts); 403
 *   forbidden for a foreign Origin;
 * - DELETE /app/api/session → 204, the session ends (SessionEnded signed_out), cookie cleared.
 */
import { Router, type Response } from 'express';
import { jsonBody } from '../../http/body.js';
import { ApiError } from '../../http/errors.js';
import { ROUTER_OPTIONS } from '../../http/route-docs.js';
import { checkPassword } from '../../../application/sign-in.js';
import { signInLimitOf } from '../sign-in-limit.js';
import { clientAddress } from '../../http/auth/trust-proxy.js';
import { checkedBody, validateSignIn } from '../bodies.js';
import { requireSameOrigin, requireWebSession, sessionView, webCallerFor, webCallerOf } from '../access.js';
import { clearSessionCookie, setSessionCookie } from '../web-session.js';
import { endSession, startSession } from '../../../application/sessions.js';
import type { HttpSettings, RouteContext } from '../../http/context.js';

/**
 * What the session routes read: RouteContext, the delays of sign-ins for an email that failed
 * often and the scrypt cost of the unknown email's decoy hash.
 */
export type SignInContext = RouteContext & Pick<HttpSettings, 'signInDelays' | 'passwordCost'>;

/** Signs `memberId` in: starts a session, sets the cookie, answers 200 with the session's body. */
export async function answerNewSession(
  ctx: RouteContext,
  res: Response,
  orgId: string,
  memberId: string,
): Promise<void> {
  const { token, session } = await startSession(ctx, orgId, memberId);
  const caller = await webCallerFor(ctx, session);
  if (!caller) throw new ApiError('unauthorized', 'wrong email or password');
  setSessionCookie(ctx, res, token);
  res.json(sessionView(ctx, caller));
}

/** Router of /app/api/session. */
export function webAppSessionRouter(ctx: SignInContext): Router {
  const router = Router(ROUTER_OPTIONS);
  const limit = signInLimitOf(ctx);

  router.get('/app/api/session', requireWebSession(ctx), (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json(sessionView(ctx, webCallerOf(res)));
  });

  router.post('/app/api/session', requireSameOrigin(ctx), async (req, res) => {
    const { email, password } = checkedBody<{ email: string; password: string }>(validateSignIn, jsonBody(req));
    const attempt = await limit.admit(email, clientAddress(req));
    let member: { orgId: string; memberId: string };
    try {
      member = await checkPassword(ctx, email, password);
      await attempt.succeeded();
    } catch (err) {
      // A wrong password stays counted; anything else was no guess.
      if (!(err instanceof ApiError && err.code === 'unauthorized')) await attempt.undone();
      throw err;
    } finally {
      attempt.release();
    }
    await answerNewSession(ctx, res, member.orgId, member.memberId);
  });

  router.delete('/app/api/session', requireWebSession(ctx), async (_req, res) => {
    const { session, member } = webCallerOf(res);
    await endSession(ctx, session.sessionId, 'signed_out', { id: member.id, name: member.name });
    clearSessionCookie(ctx, res);
    res.status(204).end();
  });
  return router;
}
