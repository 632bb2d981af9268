// STUB, to be written: see the issue. Exports the route module `projectsRoutes`.
import { Router } from 'express';
import type { RouteModule } from '../route-docs.js';

export const projectsRoutes: RouteModule = { router: () => Router(), docs: [] };
