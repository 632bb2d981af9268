// STUB, to be written: see the issue. Exports the route module `docsRoutes`.
import { Router } from 'express';
import type { RouteModule } from '../route-docs.js';

export const docsRoutes: RouteModule = { router: () => Router(), docs: [] };
