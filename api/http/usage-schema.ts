/**
 * The schemas of GET /v1/usage in the OpenAPI document (spec Usage): Usage, UsageFigures and
 * UsageDay, as api/http/routes/usage.ts answers them. Amounts credits, compute ms.
 */
import type { JsonSchema } from './route-docs.js';
import { ref } from './openapi/components.js';

const count = (description: string): JsonSchema => ({ type: 'integer', minimum: 0, description });
const credits = (description: string): JsonSchema => ({
  type: 'number',
  minimum: 0,
  description: `${description} (credits)`,
});

/** UsageFigures: the counts, credits, compute and load of a day or of a range. */
export const usageFigures: JsonSchema = {
  title: 'UsageFigures',
  description: 'Usage of the jobs created in a period (UTC days).',
  type: 'object',
  required: ['jobs', 'by_status', 'credits', 'by_component', 'compute_ms', 'items_placed', 'vehicles_used'],
  properties: {
    jobs: count('Jobs created'),
    by_status: {
      type: 'object',
      description: 'Those jobs by their current status',
      required: ['succeeded', 'failed', 'canceled', 'queued', 'running'],
      properties: {
        succeeded: count('Succeeded'),
        failed: count('Failed'),
        canceled: count('Canceled'),
        queued: count('Still queued'),
        running: count('Still running'),
      },
    },
    credits: credits('Charged by their settlements'),
    by_component: {
      type: 'object',
      description: 'The charge by price component',
      required: ['base', 'vehicles', 'compute', 'large_load'],
      properties: {
        base: credits('Per-job fees'),
        vehicles: credits('Per loaded vehicle'),
        compute: credits('Compute'),
        large_load: credits('Large-load surcharges'),
      },
    },
    compute_ms: count('Compute time billed, ms (capped at each job budget; 0 for outcomes not charged)'),
    items_placed: count('Item units placed by succeeded jobs'),
    vehicles_used: count('Vehicles loaded by succeeded jobs'),
  },
};

/** UsageDay: one UTC date's figures. */
export const usageDay: JsonSchema = {
  title: 'UsageDay',
  description: 'Usage of the jobs created on one UTC day.',
  allOf: [
    {
      type: 'object',
      required: ['date'],
      properties: { date: { type: 'string', format: 'date', description: 'YYYY-MM-DD (UTC)' } },
    },
    ref('UsageFigures'),
  ],
};

/** Usage: the answer of GET /v1/usage. */
export const usage: JsonSchema = {
  title: 'Usage',
  description:
    'Usage of the organization over `from`–`to` (UTC dates, inclusive). A job counts on the day it was created; credits are what settlements charged.',
  type: 'object',
  required: ['from', 'to', 'totals', 'days'],
  properties: {
    from: { type: 'string', format: 'date', description: 'First day (YYYY-MM-DD, UTC)' },
    to: { type: 'string', format: 'date', description: 'Last day, inclusive' },
    totals: ref('UsageFigures'),
    days: {
      type: 'array',
      items: ref('UsageDay'),
      description: 'With `group_by=day`: every date of the range in order, zeros included; otherwise empty',
    },
  },
};
