/**
 * Everything the web app (issue 11) is served by, in mounting order: JSON bodies of /app/api,
 * its session, invitation, member, API key, password, job-link revocation and organization-settings routes, then the
 * pages and assets under /app (and
 * the 404 envelope for unknown /app/api paths). These routes are the web app's own API, not the
 * spec's: they are not route modules and not in the public OpenAPI document (README "Web app").
 */
import { Router } from 'express';
import { readJsonBody } from '../body.js';
import { ROUTER_OPTIONS } from '../route-docs.js';
import type { Services } from '../services.js';
import { webAppInvitationsRouter } from './web-app-invitations.js';
import { webAppJobLinksRouter } from './web-app-job-links.js';
import { webAppKeysRouter } from './web-app-keys.js';
import { webAppMembersRouter } from './web-app-members.js';
import { webAppOrganizationRouter } from './web-app-organization.js';
import { webAppPagesRouter } from './web-app-pages.js';
import { webAppPasswordRouter } from './web-app-password.js';
import { webAppSessionRouter } from './web-app-session.js';

/** The web app's router (mounted at / by api/app.ts). */
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
