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
import type { Services } from '../../http/services.js';
import { checkPassword } from '../../../application/sign-in.js';
import { signInLimitOf } from '../sign-in-limit.js';
import { clientAddress } from '../../http/trust-proxy.js';
import { checkedBody, validateSignIn } from '../bodies.js';
import { requireSameOrigin, requireWebSession, sessionView, webCallerFor, webCallerOf } from '../access.js';
import { clearSessionCookie, endSession, setSessionCookie, startSession } from '../web-session.js';

/** Signs `memberId` in: starts a session, sets the cookie, answers 200 with the session's body. */
export async function answerNewSession(
  services: Services,
  res: Response,
  orgId: string,
  memberId: string,
): Promise<void> {
  const { token, session } = await startSession(services, orgId, memberId);
  const caller = await webCallerFor(services, session);
  if (!caller) throw new ApiError('unauthorized', 'wrong email or password');
  setSessionCookie(services, res, token);
  res.json(sessionView(services, caller));
}

/** Router of /app/api/session. */
export function webAppSessionRouter(services: Services): Router {
  const router = Router(ROUTER_OPTIONS);
  const limit = signInLimitOf(services);

  router.get('/app/api/session', requireWebSession(services), (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json(sessionView(services, webCallerOf(res)));
  });

  router.post('/app/api/session', requireSameOrigin(services), async (req, res) => {
    const { email, password } = checkedBody<{ email: string; password: string }>(validateSignIn, jsonBody(req));
    const attempt = await limit.admit(email, clientAddress(req));
    let member: { orgId: string; memberId: string };
    try {
      member = await checkPassword(services, email, password);
      await attempt.succeeded();
    } catch (err) {
      // A wrong password stays counted; anything else was no guess.
      if (!(err instanceof ApiError && err.code === 'unauthorized')) await attempt.undone();
      throw err;
    } finally {
      attempt.release();
    }
    await answerNewSession(services, res, member.orgId, member.memberId);
  });

  router.delete('/app/api/session', requireWebSession(services), async (_req, res) => {
    const { session, member } = webCallerOf(res);
    await endSession(services, session.sessionId, 'signed_out', { id: member.id, name: member.name });
    clearSessionCookie(services, res);
    res.status(204).end();
  });
  return router;
}
