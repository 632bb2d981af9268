/**
 * The PackRequest a project packs (spec PackRequest; POST /v1/projects/{id}/pack): the vehicle
 * slots as Vehicles (`id` = slot id `pv_…`, so results name the slot), the items as Items
 * (`id` = `item_…`), the groups and options when set, and the reference `Project <name>` (cut
 * to the spec's 128 characters) so that the job names where it comes from wherever its reference
 * is shown (job provenance; the job's `project_id` links it). Indices are the project's own, so
 * validation paths such as `items[2].length` point into the project.
 */
import type { PackRequest } from '../pack/request.js';
import type { ProjectContent } from './project.js';
import { REFERENCE_MAX_LENGTH } from '../job/provenance.js';

export function projectPackRequest(content: ProjectContent): PackRequest {
  return {
    reference: projectReference(content.name),
    vehicles: content.vehicles.map((v) => ({ ...v })),
    items: content.items.map((i) => ({ ...i })),
    ...(content.groups.length > 0 ? { groups: content.groups.map((g) => ({ ...g })) } : {}),
    ...(Object.keys(content.options).length > 0 ? { options: { ...content.options } } : {}),
  };
}

/**
 * The reference of a job packed from the project named `name`: `Project <name>`, at most 128
 * characters (REFERENCE_MAX_LENGTH, domain/job/provenance.ts).
 */
export function projectReference(name: string): string {
  return `Project ${name}`.slice(0, REFERENCE_MAX_LENGTH);
}
