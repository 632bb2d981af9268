/**
 * The PackRequest a project packs (spec PackRequest; POST /v1/projects/{id}/pack): the vehicle
 * slots as Vehicles (`id` = slot id `pv_…`, so results name the slot), the items as Items
 * (`id` = `item_…`), the groups and options when set. Indices are the project's own, so
 * validation paths such as `items[2].length` point into the project.
 */
import type { PackRequest } from '../pack/request.js';
import type { ProjectContent } from './project.js';

export function projectPackRequest(content: ProjectContent): PackRequest {
  return {
    vehicles: content.vehicles.map((v) => ({ ...v })),
    items: content.items.map((i) => ({ ...i })),
    ...(content.groups.length > 0 ? { groups: content.groups.map((g) => ({ ...g })) } : {}),
    ...(Object.keys(content.options).length > 0 ? { options: { ...content.options } } : {}),
  };
}
