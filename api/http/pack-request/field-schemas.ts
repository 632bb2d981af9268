/**
 * The kinds of field the PackRequest schema is built from (schema.ts): ids, names, lengths and
 * distances in cm, weights in kg, `#rrggbb` colours, each a JSON Schema `as const` (the literal
 * types feed the compile-time proof of test/api/pack-request/request-shape.test.ts), and the
 * service's sanity bounds on sizes and weights (the spec sets none).
 */

/** `#rrggbb` colour (spec Item.color, Group.color); either letter case accepted. */
export const COLOR_PATTERN = '^#[0-9a-fA-F]{6}$';

/**
 * Smallest accepted length in cm (1 mm): every size, radius and deck height of a vehicle, item
 * or blocked area. Smaller sizes describe no real load, and volumes of such sizes underflow to 0
 * (1e-300 cm → a volume of 0 → a utilization of NaN). A service sanity bound, the spec sets none.
 */
export const MIN_DIMENSION_CM = 0.1;
/** Largest accepted length in cm (1 km): a sanity bound, the spec sets none. */
export const MAX_DIMENSION_CM = 100_000;
/** Largest accepted weight in kg: a sanity bound, the spec sets none. */
export const MAX_WEIGHT_KG = 1_000_000_000;

/** An id string of 1 to 128 characters (Vehicle.id, Item.template_id…). */
export const idString = (description: string) =>
  ({ type: 'string', minLength: 1, maxLength: 128, description }) as const;
/** A display name of at most 255 characters. */
export const nameString = (description: string) => ({ type: 'string', maxLength: 255, description }) as const;
/** A size in cm, from MIN_DIMENSION_CM to MAX_DIMENSION_CM; `(cm)` is added to the description. */
export const length = (description: string) =>
  ({
    type: 'number',
    minimum: MIN_DIMENSION_CM,
    maximum: MAX_DIMENSION_CM,
    description: `${description} (cm)`,
  }) as const;
/** A distance or offset in cm, from 0 to MAX_DIMENSION_CM; `(cm)` is added to the description. */
export const distance = (description: string) =>
  ({
    type: 'number',
    minimum: 0,
    maximum: MAX_DIMENSION_CM,
    description: `${description} (cm)`,
  }) as const;
/** A weight in kg, above 0 and at most MAX_WEIGHT_KG; `(kg)` is added to the description. */
export const weight = (description: string) =>
  ({
    type: 'number',
    exclusiveMinimum: 0,
    maximum: MAX_WEIGHT_KG,
    description: `${description} (kg)`,
  }) as const;
/** A weight in kg where 0 means "no limit", at most MAX_WEIGHT_KG; `(kg)` is added to the description. */
export const weightOrZero = (description: string) =>
  ({
    type: 'number',
    minimum: 0,
    maximum: MAX_WEIGHT_KG,
    description: `${description} (kg)`,
  }) as const;
