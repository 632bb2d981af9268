/**
 * Descriptions of the OpenAPI document's tags (a description for every tag).
 * A tag used by an operation but missing here makes buildOpenApi throw, so a new route module
 * cannot add an undescribed tag.
 */

/** Description of each tag, in the order the document lists them. */
export const TAG_DESCRIPTIONS: Readonly<Record<string, string>> = {
  Jobs: 'Pack requests: validate and price them for free (estimate), create packing jobs, follow them to the end, read, cancel and list them; the plan as PDF and 3D viewer links.',
  Account: "The organization's credits, usage and effective limits.",
  Vehicles: "The organization's saved vehicles, usable by `vehicle_id` in pack requests, and the read-only presets.",
  Templates: "The organization's saved cargo items (templates), usable by `template_id` in pack requests.",
  Projects: 'Saved load plans under construction: vehicles and items kept together and packed on demand.',
  Webhooks: 'Our extension (not in the spec): endpoints notified when a job ends, signed deliveries.',
  Service: 'Health and Prometheus metrics of the service; no key needed.',
  Docs: 'This OpenAPI document and the reference docs rendered from it; no key needed.',
};

/** The document's `tags`: the used ones with their descriptions, in TAG_DESCRIPTIONS order. Throws on an undescribed tag. */
export function tagObjects(used: readonly string[]): { name: string; description: string }[] {
  const missing = used.filter((name) => TAG_DESCRIPTIONS[name] === undefined);
  if (missing.length > 0)
    throw new Error(`OpenAPI tags without a description in api/http/openapi/tags.ts: ${missing.join(', ')}`);
  return Object.entries(TAG_DESCRIPTIONS)
    .filter(([name]) => used.includes(name))
    .map(([name, description]) => ({ name, description }));
}
