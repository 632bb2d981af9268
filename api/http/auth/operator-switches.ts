/**
 * The operator switches at the edge (spec Errors `503 api_disabled`, `403
 * account_inactive`): maintenance mode for every `/v1` call, and the API switched off for one
 * organization's keys. Both read the read models the projections fold from the log, so a switch
 * turned by `npm run admin` in another process takes effect once this process has applied it.
 * Suspension needs nothing here: api/http/auth/auth.ts answers `403 account_inactive` for a suspended
 * organization.
 */
import type { NextFunction, RequestHandler, Response } from 'express';
import type { OrganizationDocument } from '../../../projections/organizations/projection.js';
import type { ServiceSettingsDocument } from '../../../projections/service-settings/projection.js';
import { readServiceSettings, type HotReadPorts } from '../../../projections/read-model-cache.js';
import { ApiError } from '../errors.js';

/** The maintenance state the read model holds (from the process's read-model cache when it has one): null when the API answers. */
export async function maintenanceOf(ctx: HotReadPorts): Promise<ServiceSettingsDocument['maintenance']> {
  return (await readServiceSettings(ctx))?.maintenance ?? null;
}

/** True for `/v1` and the paths below it (what `app.use('/v1', …)` would match, case-sensitive). */
const underV1 = (path: string): boolean => path.startsWith('/v1/') || path === '/v1';

/**
 * Middleware for `/v1` (mounted at the root: it tests the path itself, sparing the router's
 * mount-path rewrite of every request): while maintenance is on, answers `503 api_disabled`
 * with `Retry-After` (seconds) and the operator's message, before authentication. The settings
 * document held by the process's read-model cache is checked at once, without a promise.
 */
export function maintenanceGate(ctx: HotReadPorts): RequestHandler {
  const gate = (settings: ServiceSettingsDocument | null | undefined, res: Response, next: NextFunction): void => {
    const on = settings?.maintenance;
    if (!on) return next();
    res.setHeader('Retry-After', String(on.retryAfterSeconds));
    next(new ApiError('api_disabled', `the API is down for maintenance: ${on.message}`));
  };
  return (req, res, next) => {
    if (!underV1(req.path)) return next();
    const held = ctx.readCache?.heldServiceSettings();
    if (held !== undefined) return gate(held, res, next);
    readServiceSettings(ctx).then((settings) => gate(settings, res, next), next);
  };
}

/**
 * Throws `503 api_disabled` (with `Retry-After` set on `res`) when the operator switched the API
 * off for `org`; called by authentication once the key's organization is known.
 */
export function checkOrganizationApi(res: Response, org: OrganizationDocument): void {
  const off = org.apiDisabled;
  if (!off) return;
  res.setHeader('Retry-After', String(off.retryAfterSeconds));
  throw new ApiError('api_disabled', `the API is switched off for this organization: ${off.message}`);
}
