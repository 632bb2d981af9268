/**
 * The Options part of the PackRequest schema (schema.ts; spec "Resources and their fields" →
 * Options): packing mode, group routing, stacking limits, compute time (seconds) and, as our
 * extension, the safe stacking rules (docs/solver.md, "Safe stacks"), the search's seed and work
 * limit (deterministic mode).
 */
import { GROUP_ROUTINGS, PACKING_MODES } from '../../../domain/pack/request.js';
import { weightOrZero } from './field-schemas.js';

/** Options: the job's options, every field optional (`$defs/Options`). */
export const OPTIONS_SCHEMA = {
  title: 'Options',
  description: 'Job options; every field optional.',
  type: 'object',
  additionalProperties: false,
  properties: {
    packing_mode: {
      type: 'string',
      enum: PACKING_MODES,
      description:
        'auto (default): copies of the most suitable vehicle are added up to the vehicle limit; fleet_only: listed vehicles only',
    },
    group_routing: {
      type: 'string',
      enum: GROUP_ROUTINGS,
      description: 'none (default): groups are informational; wall, routing, no_stack: groups constrain the loading',
    },
    allow_overweight: { type: 'boolean', description: 'Ignore payload limits; default false' },
    max_stack_items: {
      type: 'integer',
      minimum: 0,
      maximum: 1_000_000,
      description: 'Max items in a stack, 0 = unlimited',
    },
    max_stack_density_kg_m2: weightOrZero('Stack density per m² (kg/m²), 0 = unlimited'),
    pallets_on_cartons: {
      type: 'boolean',
      description:
        'Our extension (safe stacks): true lets pallet-shaped units (shape pallet) rest on units of other shapes; ' +
        'default false: a pallet stands on the floor, on the second deck or on other pallets',
    },
    heavy_on_light: {
      type: 'number',
      minimum: 0,
      maximum: 1000,
      description:
        'Our extension (safe stacks): a unit weighs at most this many times the units it rests on, together; ' +
        'default 2; 0 = no limit; otherwise at least 1 (identical units must stack)',
    },
    max_slenderness: {
      type: 'number',
      minimum: 0,
      maximum: 1000,
      description:
        'Our extension (safe stacks): after every loading step, a stack of two or more units that nothing holds up sideways ' +
        '(no wall, no unit loaded before it) is at most this many times as tall as its base is long along that side; ' +
        'default 3; 0 = no limit; otherwise at least 1',
    },
    lock_rotations: {
      type: 'boolean',
      description: 'Keep the first orientation that fits the vehicle height; default false',
    },
    group_identical_bins: { type: 'boolean', description: 'Treat identical vehicles as one pool; default false' },
    time_limit: {
      type: 'number',
      minimum: 0,
      description: 'Seconds of compute at most; 0 (default) = automatic; capped at max_time_limit_seconds',
    },
    enforce_axle: { type: 'boolean', description: 'Reject placements that overload an axle group (needs axle access)' },
    seed: {
      type: 'integer',
      minimum: 1,
      maximum: 2_147_483_647,
      description:
        'Our extension. Seed of the search; default: a new random seed per job. With work_limit, the same request and seed give the same plan',
    },
    work_limit: {
      type: 'integer',
      minimum: 1,
      maximum: 1_000_000_000,
      description:
        'Our extension: deterministic mode. The search stops after this many block placements per search thread (trial placements included) ' +
        'instead of at the time limit, so the same request, seed and service thread count give the same plan on any machine; ' +
        'the time limit still ends the search if it comes first (then the plan may differ). About 20,000–100,000 placements per second per thread',
    },
  },
} as const;
