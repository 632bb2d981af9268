/**
 * Everything the web app is served by, in mounting order: JSON bodies of /app/api,
 * its session, invitation, member, API key, password, job-link revocation and organization-settings routes, then the
 * pages and assets under /app (and
 * the 404 envelope for unknown /app/api paths). These routes are the web app's own API, not the
 * spec's: they are not route modules and not in the public OpenAPI document (docs/web-app.md).
 */
import { Router } from 'express';
import { readJsonBody } from '../../http/body.js';
import { ROUTER_OPTIONS } from '../../http/route-docs.js';
import type { Services } from '../../http/services.js';
import { webAppInvitationsRouter } from './invitations.js';
import { webAppJobLinksRouter } from './job-links.js';
import { webAppKeysRouter } from './keys.js';
import { webAppMembersRouter } from './members.js';
import { webAppOrganizationRouter } from './organization.js';
import { webAppPagesRouter } from './pages.js';
import { webAppPasswordRouter } from './password.js';
import { webAppSessionRouter } from './session.js';

/** The web app's router (mounted at / by api/http/app.ts). */
export function webAppRouter(services: Services): Router {
  const router = Router(ROUTER_OPTIONS);
  router.use('/app/api', readJsonBody);
  router.use(webAppSessionRouter(services));
  router.use(webAppInvitationsRouter(services));
  router.use(webAppMembersRouter(services));
  router.use(webAppKeysRouter(services));
  router.use(webAppJobLinksRouter(services));
  router.use(webAppPasswordRouter(services));
  router.use(webAppOrganizationRouter(services));
  router.use(webAppPagesRouter(services));
  return router;
}
