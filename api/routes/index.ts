/**
 * Every route module of the service, in mounting order. The app mounts their routers and the
 * OpenAPI document is built from their docs, so the two cannot drift apart unnoticed.
 */
import type { RouteModule } from '../route-docs.js';
import { accountRoutes } from './account.js';
import { docsRoutes } from './docs.js';
import { estimateRoutes } from './estimate.js';
import { healthRoutes } from './health.js';
import { jobListRoutes } from './job-list.js';
import { jobsRoutes } from './jobs.js';
import { packRoutes } from './pack.js';
import { planPdfRoutes } from './plan-pdf.js';
import { projectsRoutes } from './projects.js';
import { templatesRoutes } from './templates.js';
import { usageRoutes } from './usage.js';
import { vehiclesRoutes } from './vehicles.js';

export const ROUTE_MODULES: readonly RouteModule[] = [
  healthRoutes,
  docsRoutes,
  packRoutes,
  estimateRoutes,
  jobListRoutes,
  jobsRoutes,
  accountRoutes,
  usageRoutes,
  vehiclesRoutes,
  templatesRoutes,
  projectsRoutes,
  planPdfRoutes,
];
