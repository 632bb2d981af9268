/** Every read model's projection, in the order the runner applies them to each event. */
import { balancesProjection } from './balances/projection.js';
import { idempotencyClaimsProjection } from './idempotency-claims/projection.js';
import { jobsProjection } from './jobs/projection.js';
import { organizationsProjection } from './organizations/projection.js';
import type { Projection } from './projection.js';
import { projectsProjection } from './projects/projection.js';
import { sessionsProjection } from './sessions/projection.js';
import { serviceSettingsProjection } from './service-settings/projection.js';
import { templatesProjection } from './templates/projection.js';
import { usageProjection } from './usage/projection.js';
import { vehiclesProjection } from './vehicles/projection.js';
import { webhooksProjection } from './webhooks/projection.js';

export const PROJECTIONS: readonly Projection[] = [
  organizationsProjection,
  balancesProjection,
  jobsProjection,
  usageProjection,
  vehiclesProjection,
  templatesProjection,
  projectsProjection,
  serviceSettingsProjection,
  webhooksProjection,
  sessionsProjection,
  idempotencyClaimsProjection,
];
