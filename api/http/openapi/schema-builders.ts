/**
 * Building blocks of the OpenAPI document's schemas (JSON Schema 2020-12): a `$ref` to a
 * component, described scalars, credits (1 credit = 1 USD), records whose fields are required
 * unless named optional, and `$defs` lifted into components.
 */
import type { JsonSchema } from '../route-docs.js';

/** `#/components/schemas/<name>`. */
export const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

/**
 * Schema builders: a described string, integer, number, boolean, date-time (nullable), amount of
 * credits, array of a component.
 */
export const str = (description: string): JsonSchema => ({ type: 'string', description });
export const int = (description: string): JsonSchema => ({ type: 'integer', description });
export const num = (description: string): JsonSchema => ({ type: 'number', description });
export const bool = (description: string): JsonSchema => ({ type: 'boolean', description });
export const time = (description: string): JsonSchema => ({ type: 'string', format: 'date-time', description });
export const nullableTime = (description: string): JsonSchema => ({
  type: ['string', 'null'],
  format: 'date-time',
  description,
});
export const credits = (description: string): JsonSchema => ({
  type: 'number',
  description: `${description} (credits; 1 credit = 1 USD)`,
});
export const arrayOf = (name: string, description: string): JsonSchema => ({
  type: 'array',
  items: ref(name),
  description,
});

/** An object schema whose listed properties are all required unless named in `optional`. */
export function record(
  title: string,
  description: string,
  properties: Record<string, JsonSchema>,
  optional: string[] = [],
): JsonSchema {
  return {
    title,
    description,
    type: 'object',
    required: Object.keys(properties).filter((k) => !optional.includes(k)),
    properties,
  };
}

/**
 * A deep copy of `schema` with every `#/$defs/X` reference rewritten to
 * `#/components/schemas/X`, without `$schema` and `$defs` (components hold those).
 */
export function liftDefs(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(liftDefs);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$schema' || key === '$defs') continue;
    out[key] =
      key === '$ref' && typeof value === 'string'
        ? value.replace(/^#\/\$defs\//, '#/components/schemas/')
        : liftDefs(value);
  }
  return out;
}
