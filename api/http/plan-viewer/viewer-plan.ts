/**
 * The plan as the 3D viewer reads it (GET /viewer/{job}/plan.json, our extension): the
 * spec Result's vehicles and unplaced units, plus what the Result leaves out and the viewer
 * draws: each vehicle's blocked areas and second deck, every item definition (label, size,
 * weight, colour, group) and the groups with their order and colour. Lengths cm, weights kg;
 * `display_units` tells the viewer to show in/lb instead. Pure: imports only the plan types,
 * so the browser code shares these shapes.
 */
import type { Warning } from '../../../domain/pack/diagnostics.js';
import type { PackModel, Plan, PlannedVehicle, UnplacedUnit } from '../../../domain/pack/plan.js';
import type { ItemShape, Rect } from '../../../domain/pack/request.js';
import type { DisplayUnits } from '../../../display/units.js';

/** A loaded vehicle: the spec ResultVehicle plus its floor zones and second deck. */
export interface ViewerVehicle extends PlannedVehicle {
  /** Floor zones nothing may stand on (spec Vehicle.blocked_areas), cm. */
  blocked_areas: Rect[];
  /** Second deck (spec Vehicle.aux_deck…): its floor height, cm, and the kg it carries; null when none. */
  aux_deck: { height: number; max_weight: number } | null;
}

/** An item definition (SKU) of the job, placed or not. */
export interface ViewerItem {
  /** item_id of its placements and unplaced units. */
  id: string;
  label: string;
  shape: ItemShape;
  /** Bounding box as defined, cm. */
  length: number;
  width: number;
  height: number;
  /** kg, one unit. */
  weight: number;
  /** Units requested. */
  quantity: number;
  group: string | null;
  /** `#rrggbb` the request gave the item (or its group), else null: the viewer picks like the PDF. */
  color: string | null;
  hazardous: boolean;
}

/** A group of items (spec Group), in loading order. */
export interface ViewerGroup {
  name: string;
  /** Lower = loaded first (deeper). */
  order: number;
  /** `#rrggbb` the request gave, else null. */
  color: string | null;
}

/** The viewer's plan document. */
export interface ViewerPlan {
  job_id: string;
  /**
   * Which revision of the job's plan this is (plan editing): 0 = the plan the job made, N = the
   * plan of revision N (the signed query's `revision`).
   */
  revision: number;
  reference: string | null;
  created_at: string;
  /** The link and this document are gone after it (spec Job.expires_at). */
  expires_at: string;
  vehicles: ViewerVehicle[];
  unplaced: UnplacedUnit[];
  items: ViewerItem[];
  groups: ViewerGroup[];
  warnings: Warning[];
  /**
   * How the viewer shows lengths and weights: the organization's preference
   * (OrganizationDocument.displayUnits), `metric` (cm, kg) or `imperial` (in, lb). The figures
   * of this document stay cm and kg either way. Always sent; absent (an older document) reads
   * as metric.
   */
  display_units?: DisplayUnits;
  /**
   * The job's resolved model (cm, kg; the solver's PackModel as stored with the job), so the
   * viewer's edit mode checks a changed plan with the same verifier as the service; null when
   * the request body is not stored.
   */
  model: PackModel | null;
}

/** What viewerPlan reads: the job's identity, its stored plan and resolved model, the request's groups. */
export interface ViewerPlanSource {
  jobId: string;
  reference: string | null;
  createdAt: string;
  expiresAt: string;
  plan: Plan;
  /** The revision `plan` is (0 = the job's own plan). */
  revision: number;
  /** The resolved model (null when the request body is not stored: no zones, decks or item list). */
  model: PackModel | null;
  /** The request's `groups` as sent (colours of groups). */
  requestGroups: readonly { name: string; order?: number; color?: string }[];
  warnings: Warning[];
  /** The organization's display units; metric when absent. */
  displayUnits?: DisplayUnits;
}

const HEX = /^#[0-9a-fA-F]{6}$/;

/**
 * The viewer document of a plan. Vehicles are matched to their definitions by `vehicle_id`; a
 * vehicle without one gets no blocked areas and no deck. Items come from the model, else from
 * the plan's placements and unplaced units (sizes as placed). Groups are the model's groups in
 * loading order with the colour of their first listing.
 */
export function viewerPlan(src: ViewerPlanSource): ViewerPlan {
  const definitions = new Map((src.model?.vehicles ?? []).map((v) => [v.id, v] as const));
  const vehicles = src.plan.vehicles.map((v): ViewerVehicle => {
    const def = definitions.get(v.vehicle_id);
    return {
      ...v,
      blocked_areas: def?.blockedAreas.map((r) => ({ x: r.x, z: r.z, length: r.length, width: r.width })) ?? [],
      aux_deck: def?.auxDeck ? { height: def.auxDeck.height, max_weight: def.auxDeck.maxWeight } : null,
    };
  });
  return {
    job_id: src.jobId,
    revision: src.revision,
    reference: src.reference,
    created_at: src.createdAt,
    expires_at: src.expiresAt,
    vehicles,
    unplaced: src.plan.unplaced,
    items: src.model ? itemsOfModel(src.model) : itemsOfPlan(src.plan),
    groups: groupsOf(src),
    warnings: src.warnings,
    display_units: src.displayUnits ?? 'metric',
    model: src.model,
  };
}

function itemsOfModel(model: PackModel): ViewerItem[] {
  return model.items.map((it) => ({
    id: it.id,
    label: it.label,
    shape: it.shape,
    length: it.length,
    width: it.width,
    height: it.height,
    weight: it.weight,
    quantity: it.quantity,
    group: it.group,
    color: it.color !== null && HEX.test(it.color) ? it.color.toLowerCase() : null,
    hazardous: it.hazardous,
  }));
}

/** Items seen in the plan when no model is stored: sizes of the first placement, counts of units. */
function itemsOfPlan(plan: Plan): ViewerItem[] {
  const items = new Map<string, ViewerItem>();
  const add = (
    id: string,
    label: string,
    size: { length: number; width: number; height: number; weight: number } | null,
  ): void => {
    const known = items.get(id);
    if (known) {
      known.quantity += 1;
      return;
    }
    items.set(id, {
      id,
      label,
      shape: 'box',
      length: size?.length ?? 0,
      width: size?.width ?? 0,
      height: size?.height ?? 0,
      weight: size?.weight ?? 0,
      quantity: 1,
      group: null,
      color: null,
      hazardous: false,
    });
  };
  for (const v of plan.vehicles) for (const p of v.placements) add(p.item_id, p.label, p);
  for (const u of plan.unplaced) add(u.item_id, u.label, null);
  return [...items.values()];
}

function groupsOf(src: ViewerPlanSource): ViewerGroup[] {
  const colours = new Map<string, string | null>();
  for (const g of src.requestGroups)
    if (!colours.has(g.name)) colours.set(g.name, g.color && HEX.test(g.color) ? g.color.toLowerCase() : null);
  const orders = new Map<string, number>();
  for (const it of src.model?.items ?? [])
    if (it.group !== null && !orders.has(it.group)) orders.set(it.group, it.groupOrder);
  return [...orders]
    .map(([name, order]) => ({ name, order, color: colours.get(name) ?? null }))
    .sort((a, b) => a.order - b.order || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
