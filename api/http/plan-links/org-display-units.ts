/**
 * The display units of a job's organization (OrganizationDocument.displayUnits) for the plan it
 * shows to people: the 3D viewer's plan document and the PDF. `metric` when the organization
 * has no preference or is gone. The API itself always speaks cm and kg.
 */
import { displayUnitsOf, type DisplayUnits } from '../../../display/units.js';
import { ORGANIZATIONS, type OrganizationDocument } from '../../../projections/organizations/projection.js';
import type { UseCasePorts } from '../../../application/ports.js';

/** `metric` or `imperial`, as the organization `orgId` chose (metric when unset or unknown). */
export async function orgDisplayUnits(ctx: Pick<UseCasePorts, 'reads'>, orgId: string): Promise<DisplayUnits> {
  const org = await ctx.reads.collection<OrganizationDocument>(ORGANIZATIONS).get(orgId);
  return displayUnitsOf(org?.displayUnits);
}
