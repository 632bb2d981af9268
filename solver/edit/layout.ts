/**
 * A plan reduced to what a person decides when editing it (plan editing: POST /v1/plans/verify,
 * plan revisions, the viewer's edit mode): which unit stands in which vehicle copy, where (min
 * corner, cm) and how turned. Everything else of a Plan (placed sizes, labels, weights, loading
 * steps, figures, axle loads, unplaced units) follows from the layout and the model, and is
 * recomputed here the way the search's plan assembly computes it. Browser-safe: the viewer
 * bundles this module.
 */
import type {
  Orientation,
  PackModel,
  Placement,
  Plan,
  PlannedVehicle,
  UnplacedReason,
  UnplacedUnit,
} from '../../domain/pack/plan.js';
import { groupRanks } from '../search/job-context.js';
import { loadingSteps, restsOn, underDeck, type Box } from '../search/loading-steps.js';
import { vehicleFigures } from '../search/vehicle-figures.js';

/** One unit of a layout: which unit (item id, 1-based instance), where (min corner, cm), how turned. */
export interface LayoutUnit {
  item_id: string;
  instance: number;
  x: number;
  y: number;
  z: number;
  orientation: Orientation;
  /**
   * Loading step the unit had (1-based within its vehicle), when known: kept when every unit of
   * the vehicle has one and they still make a loading order (planFromLayout), else recomputed.
   */
  step?: number;
}

/** One vehicle copy of a layout: its definition id (ResultVehicle.vehicle_id), copy (1-based) and units. */
export interface LayoutVehicle {
  vehicle_id: string;
  copy: number;
  placements: LayoutUnit[];
}

/** An unplaced unit of a layout, with the reason to report when known. */
export interface LayoutUnplaced {
  item_id: string;
  instance: number;
  reason?: UnplacedReason;
}

/**
 * A plan as a person decides it: vehicles in loading order with their units; `unplaced` only
 * carries reasons (every model unit not placed is unplaced whether listed or not).
 */
export interface Layout {
  vehicles: LayoutVehicle[];
  unplaced?: LayoutUnplaced[];
}

/** `item_id#instance`: how maps of units are keyed (the verifier's messages name units the same way). */
export function unitKey(itemId: string, instance: number): string {
  return `${itemId}#${instance}`;
}

/**
 * The layout of a plan, or a copy of a layout with only the layout's fields (a posted Result read
 * as a layout: other fields dropped): vehicles in order, their units, the unplaced with their
 * reasons. `steps` false leaves the units' loading steps out, so planFromLayout recomputes them.
 */
export function layoutOf(plan: Plan | Layout, options: { steps?: boolean } = {}): Layout {
  const steps = options.steps ?? true;
  return {
    vehicles: plan.vehicles.map((v) => ({
      vehicle_id: v.vehicle_id,
      copy: v.copy,
      placements: v.placements.map((p) => ({
        item_id: p.item_id,
        instance: p.instance,
        x: p.x,
        y: p.y,
        z: p.z,
        orientation: p.orientation,
        ...(steps && p.step !== undefined ? { step: p.step } : {}),
      })),
    })),
    unplaced: (plan.unplaced ?? []).map((u) => ({
      item_id: u.item_id,
      instance: u.instance,
      ...(u.reason !== undefined ? { reason: u.reason } : {}),
    })),
  };
}

/**
 * Placed size of an item in `orientation`, cm: the letters name which defined dimension lies
 * along x (length), z (width) and y (height) (domain/pack/plan.ts Orientation).
 */
export function placedSize(
  item: { length: number; width: number; height: number },
  orientation: Orientation,
): { length: number; width: number; height: number } {
  const d = (ch: string | undefined): number => (ch === 'l' ? item.length : ch === 'w' ? item.width : item.height);
  return { length: d(orientation[0]), width: d(orientation[1]), height: d(orientation[2]) };
}

/**
 * Rebuilds the full Plan of `layout` for `model`: placed sizes from each item and orientation,
 * labels and weights from the items, loading steps (the layout's own when every unit of the
 * vehicle has one and they are still a loading order, so an unedited plan keeps its steps; else
 * solver/search/loading-steps.ts: nothing before what holds it up, group order with a group routing), the figures and axle loads of each vehicle,
 * and as unplaced every model unit the layout does not place (reason from `layout.unplaced`, else
 * `no_space`). Vehicles with no units are left out and the rest indexed 0.. in layout order.
 * Never throws: names the model does not know are kept (sizes 0, weight 0) for the verifier to
 * report (rules `instances`, `vehicles`).
 */
export function planFromLayout(model: PackModel, layout: Layout): Plan {
  const items = new Map<string, number>();
  model.items.forEach((it, i) => {
    if (!items.has(it.id)) items.set(it.id, i);
  });
  const definitions = new Map(model.vehicles.map((v) => [v.id, v] as const).reverse());
  const ranks = groupRanks(model);
  const placed = new Set<string>();
  const vehicles: PlannedVehicle[] = [];
  for (const lv of layout.vehicles) {
    if (lv.placements.length === 0) continue;
    const v = definitions.get(lv.vehicle_id);
    const placements: Placement[] = lv.placements.map((u) => {
      placed.add(unitKey(u.item_id, u.instance));
      const i = items.get(u.item_id);
      const it = i === undefined ? undefined : model.items[i];
      const size = it ? placedSize(it, u.orientation) : { length: 0, width: 0, height: 0 };
      return {
        item_id: u.item_id,
        instance: u.instance,
        label: it?.label ?? '',
        x: u.x,
        y: u.y,
        z: u.z,
        ...size,
        rotated: u.orientation !== 'lwh',
        orientation: u.orientation,
        step: 0,
        weight: it?.weight ?? 0,
      };
    });
    const boxes: Box[] = placements.map((p) => {
      const i = items.get(p.item_id);
      const it = i === undefined ? undefined : model.items[i];
      const depth = it?.nestingHeight ?? 0;
      // Nesting (spec Item.nesting_height): only with the defined height vertical.
      const nests = depth > 0 && p.orientation[2] === 'h' && depth < p.height;
      return {
        x: p.x,
        y: p.y,
        z: p.z,
        dx: p.length,
        dy: p.height,
        dz: p.width,
        rank: model.groupRouting === 'none' || i === undefined ? 0 : ranks[i]!,
        // Units of one item and orientation are one kind: only they nest into each other.
        kind: i === undefined ? -1 : i * 8 + ORIENTATION_INDEX[p.orientation],
        ...(nests ? { nest: depth } : {}),
      };
    });
    const deck = v?.auxDeck?.height ?? null;
    const given = lv.placements.map((u) => u.step ?? 0);
    // A new order keeps stacks stable where it can (the safe stacking rule max_slenderness).
    const ratio = model.stacking?.maxSlenderness ?? 0;
    const stable = v && ratio > 0 ? { width: v.width, ratio } : undefined;
    const steps = isLoadingOrder(boxes, deck, given) ? given : loadingSteps(boxes, deck, stable);
    const nested = nestedDepths(boxes, deck);
    placements.forEach((p, k) => (p.step = steps[k]!));
    const order = placements.map((_, k) => k).sort((a, b) => steps[a]! - steps[b]!);
    const definition = v ?? { length: 0, width: 0, height: 0, maxWeight: 0, axles: null };
    const { axle_loads, ...figures } = vehicleFigures(
      definition,
      placements.map((placement, k) => ({ placement, nested: nested[k]! })),
    );
    vehicles.push({
      index: vehicles.length,
      vehicle_id: lv.vehicle_id,
      copy: lv.copy,
      auto_added: v ? lv.copy > v.quantity : false,
      name: v?.name ?? lv.vehicle_id,
      type: v?.type ?? 'truck',
      length: definition.length,
      width: definition.width,
      height: definition.height,
      max_weight: definition.maxWeight,
      items_placed: placements.length,
      ...figures,
      placements: order.map((k) => placements[k]!),
      ...(axle_loads ? { axle_loads } : {}),
    });
  }
  const reasons = new Map((layout.unplaced ?? []).map((u) => [unitKey(u.item_id, u.instance), u.reason] as const));
  const unplaced: UnplacedUnit[] = [];
  for (const [i, it] of model.items.entries()) {
    if (items.get(it.id) !== i) continue;
    for (let n = 1; n <= it.quantity; n++) {
      const key = unitKey(it.id, n);
      if (placed.has(key)) continue;
      unplaced.push({ item_id: it.id, instance: n, label: it.label, reason: reasons.get(key) ?? 'no_space' });
    }
  }
  return { vehicles, unplaced };
}

/**
 * True when `steps` numbers the boxes 1..n, each once, every box after the boxes it rests on and,
 * with a second deck, every box on or above the deck after the boxes under it in its stretch
 * (the orders loadingSteps makes), and, with group ranks, no box before a box of a lower rank it
 * could be loaded after (ranks never decrease along the steps).
 */
function isLoadingOrder(boxes: readonly Box[], deck: number | null, steps: readonly number[]): boolean {
  const n = boxes.length;
  const seen = new Uint8Array(n + 1);
  for (const s of steps) {
    if (!Number.isInteger(s) || s < 1 || s > n || seen[s]) return false;
    seen[s] = 1;
  }
  const below = restsOn(boxes, deck);
  const under = underDeck(boxes, deck);
  for (let i = 0; i < n; i++) {
    for (const j of below[i]!) if (steps[j]! >= steps[i]!) return false;
    for (const j of under[i]!) if (steps[j]! >= steps[i]!) return false;
  }
  const byStep = boxes.map((_, i) => i).sort((a, b) => steps[a]! - steps[b]!);
  for (let k = 1; k < n; k++) if ((boxes[byStep[k]!]!.rank ?? 0) < (boxes[byStep[k - 1]!]!.rank ?? 0)) return false;
  return true;
}

const ORIENTATION_INDEX: Record<Orientation, number> = { lwh: 0, wlh: 1, lhw: 2, hwl: 3, whl: 4, hlw: 5 };

/** For each box, the cm it sinks into an identical box it rests on (0 when it does not nest). */
function nestedDepths(boxes: readonly Box[], deck: number | null): number[] {
  const below = restsOn(boxes, deck);
  return boxes.map((b, i) => {
    if (!b.nest) return 0;
    const into = below[i]!.some((j) => {
      const s = boxes[j]!;
      return s.kind === b.kind && Math.abs(s.y + s.dy - b.nest! - b.y) <= 1e-5;
    });
    return into ? b.nest : 0;
  });
}
