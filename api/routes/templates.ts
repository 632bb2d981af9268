// STUB, to be written: see the issue. Exports the route module `templatesRoutes`.
import { Router } from 'express';
import type { RouteModule } from '../route-docs.js';

export const templatesRoutes: RouteModule = { router: () => Router(), docs: [] };
