// STUB, to be written: see the issue. Exports the route module `jobListRoutes`.
import { Router } from 'express';
import type { RouteModule } from '../route-docs.js';

export const jobListRoutes: RouteModule = { router: () => Router(), docs: [] };
