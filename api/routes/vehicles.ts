// STUB, to be written: see the issue. Exports the route module `vehiclesRoutes`.
import { Router } from 'express';
import type { RouteModule } from '../route-docs.js';

export const vehiclesRoutes: RouteModule = { router: () => Router(), docs: [] };
