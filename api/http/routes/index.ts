/**
 * Every route module of the service, in mounting order. The app mounts their routers and the
 * OpenAPI document is built from their docs, so the two cannot drift apart unnoticed. The docs
 * module gets this list handed in (it serves the document built from it).
 */
import type { RouteModule } from '../route-docs.js';
import { accountRoutes } from './account.js';
import { docsRoutes } from './docs.js';
import { estimateRoutes } from './estimate.js';
import { healthRoutes } from './health.js';
import { jobListRoutes } from './job-list.js';
import { jobsRoutes } from './jobs.js';
import { loadingListRoutes } from './loading-list.js';
import { metricsRoutes } from './metrics.js';
import { packRoutes } from './pack.js';
import { planPdfRoutes } from './plan-pdf.js';
import { planVerifyRoutes } from './plan-verify.js';
import { planViewerRoutes } from './plan-viewer.js';
import { projectsRoutes } from './projects.js';
import { revisionsRoutes } from './revisions.js';
import { templatesRoutes } from './templates.js';
import { usageRoutes } from './usage.js';
import { vehiclesRoutes } from './vehicles.js';
import { webhookEndpointsRoutes } from './webhook-endpoints.js';

export const ROUTE_MODULES: readonly RouteModule[] = [
  healthRoutes,
  metricsRoutes,
  docsRoutes(() => ROUTE_MODULES),
  packRoutes,
  estimateRoutes,
  planVerifyRoutes,
  jobListRoutes,
  jobsRoutes,
  revisionsRoutes,
  loadingListRoutes,
  accountRoutes,
  usageRoutes,
  vehiclesRoutes,
  templatesRoutes,
  projectsRoutes,
  planPdfRoutes,
  planViewerRoutes,
  webhookEndpointsRoutes,
];
