/**
 * The content of a project body (POST and PATCH /v1/projects): the fields sent, with slot and
 * item ids kept or given (domain/project/slots.ts) and the saved records they name checked. The
 * whole pack rules apply only when packing (api/http/projects/pack.ts), so a draft may be incomplete.
 */
import type { ErrorDetail } from '../../../domain/pack/diagnostics.js';
import type { GroupInput, OptionsInput } from '../../../domain/pack/request.js';
import type { ProjectContent, ProjectItem, ProjectVehicle } from '../../../domain/project/project.js';
import { assignIds } from '../../../domain/project/slots.js';
import type { Caller } from '../auth/auth.js';
import { checkContextFor } from '../jobs/check-context.js';
import { newId } from '../../../application/id.js';
import { distinctProblems, refuseProblems } from '../saved-record.js';
import type { HttpSettings } from '../context.js';
import type { UseCasePorts } from '../../../application/ports.js';

/**
 * The content fields of a schema-valid body with ids assigned, or throws 422 with every problem:
 * ids (see domain/project/slots.ts) and saved records named (`unknown_vehicle`, `unknown_template`).
 */
export async function projectContentOf(
  ctx: Pick<UseCasePorts, 'reads'> & Pick<HttpSettings, 'seed'>,
  caller: Caller,
  body: Record<string, unknown>,
  current: Pick<ProjectContent, 'vehicles' | 'items'> | null,
): Promise<Partial<ProjectContent>> {
  const out: Partial<ProjectContent> = {};
  const problems: ErrorDetail[] = [];
  if (typeof body['name'] === 'string') out.name = body['name'];
  if (Array.isArray(body['vehicles'])) {
    const slots = assignIds(
      'vehicles',
      body['vehicles'] as ProjectVehicle[],
      new Set(current?.vehicles.map((v) => v.id)),
      () => newId('pv'),
    );
    if (slots.ok) out.vehicles = slots.entries.map((v) => ({ ...v, quantity: v.quantity ?? 1 }));
    else for (const d of slots.details) problems.push(d);
  }
  if (Array.isArray(body['items'])) {
    const items = assignIds('items', body['items'] as ProjectItem[], new Set(current?.items.map((i) => i.id)), () =>
      newId('item'),
    );
    if (items.ok) out.items = items.entries;
    else for (const d of items.details) problems.push(d);
  }
  if (Array.isArray(body['groups'])) out.groups = body['groups'] as GroupInput[];
  if (body['options'] !== undefined) out.options = body['options'] as OptionsInput;
  const records = await checkContextFor(ctx, caller, body);
  (body['vehicles'] as ProjectVehicle[] | undefined)?.forEach((v, i) => {
    if (!records.findVehicle(v.vehicle_id))
      problems.push({
        path: `vehicles[${i}].vehicle_id`,
        code: 'unknown_vehicle',
        message: `no preset or own vehicle has the id "${v.vehicle_id}"`,
      });
  });
  (body['items'] as ProjectItem[] | undefined)?.forEach((item, i) => {
    const tid = item.template_id;
    if (tid !== undefined && !records.findTemplate(tid))
      problems.push({
        path: `items[${i}].template_id`,
        code: 'unknown_template',
        message: `no template of the organization has the id "${tid}"`,
      });
  });
  refuseProblems(distinctProblems(problems), 'project');
  return out;
}
