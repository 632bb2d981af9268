// STUB, to be written: see the issue. Exports the route module `usageRoutes`.
import { Router } from 'express';
import type { RouteModule } from '../route-docs.js';

export const usageRoutes: RouteModule = { router: () => Router(), docs: [] };
