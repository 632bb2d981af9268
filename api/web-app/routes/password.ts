/**
 * The signed-in member's own password (roles; the web app's own API, not in the OpenAPI document):
 * - POST /app/api/password {current_password, new_password} (any member, the owner too; CSRF) →
 *   204: the credential's new scrypt hash (CredentialPasswordChanged `changed`). Every other
 *   session of the member ends with it (`password_changed`, projections/sessions); this one stays.
 *   422 validation_failed at `current_password` when it is wrong, at `new_password` when it breaks
 *   the password rules (10–200 characters, application/password.ts) or equals the current one.
 */
import { Router } from 'express';
import { handleCommand, loadState } from '../../../domain/decider/handle.js';
import { credentialDecider } from '../../../domain/credential/credential.js';
import { credentialStream } from '../../../domain/credential/streams.js';
import { jsonBody } from '../../http/body.js';
import { ApiError } from '../../http/errors.js';
import { hashPassword, verifyPassword } from '../../../application/password.js';
import { ROUTER_OPTIONS } from '../../http/route-docs.js';
import type { HttpSettings, RouteContext } from '../../http/context.js';
import { checkedBody, validatePasswordChange } from '../bodies.js';
import { requireWebSession, webCallerOf } from '../access.js';

/** Router of /app/api/password; `passwordCost`: scrypt cost of the new hash (and of the decoy). */
export function webAppPasswordRouter(ctx: RouteContext & Pick<HttpSettings, 'passwordCost'>): Router {
  const router = Router(ROUTER_OPTIONS);

  router.post('/app/api/password', requireWebSession(ctx), async (req, res) => {
    const { member, session } = webCallerOf(res);
    const body = checkedBody<{ current_password: string; new_password: string }>(validatePasswordChange, jsonBody(req));
    if (!member.email) throw new ApiError('not_found', 'this member has no password to change');
    const stream = credentialStream(member.email);
    const { state } = await loadState(ctx.store, stream, credentialDecider);
    const current = state.active && state.userId === member.id ? state.password : null;
    if (!(await verifyPassword(body.current_password, current, ctx.passwordCost))) {
      throw new ApiError('validation_failed', 'the current password is wrong', [
        { path: 'current_password', code: 'invalid_value', message: 'the current password is wrong' },
      ]);
    }
    if (body.new_password === body.current_password) {
      throw new ApiError('validation_failed', 'the new password is the current one', [
        { path: 'new_password', code: 'invalid_value', message: 'choose a password other than the current one' },
      ]);
    }
    const done = await handleCommand(ctx.store, stream, credentialDecider, {
      type: 'ChangePassword',
      data: {
        userId: member.id,
        password: await hashPassword(body.new_password, ctx.passwordCost),
        reason: 'changed',
        keepSessionId: session.sessionId,
      },
      metadata: { now: ctx.clock(), actor: { id: member.id, name: member.name } },
    });
    await ctx.projections.waitFor(done.position);
    res.status(204).end();
  });
  return router;
}
