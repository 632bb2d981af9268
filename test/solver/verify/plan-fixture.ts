/**
 * Hand-made models and plans for the verifier tests: a small valid plan (figures worked out by
 * hand in the comments) and grid plans built without any solver code.
 */
import type { ItemModel, PackModel, Placement, Plan, PlannedVehicle, VehicleModel } from '../../../domain/pack/plan.js';

/** An item with the defaults the tests do not care about. */
export function item(
  fields: Partial<ItemModel> & Pick<ItemModel, 'id' | 'length' | 'width' | 'height' | 'weight' | 'quantity'>,
): ItemModel {
  return {
    label: fields.id,
    shape: 'box',
    stackable: true,
    maxStackWeight: 0,
    nestingHeight: 0,
    orientations: ['lwh', 'wlh', 'lhw', 'hwl', 'whl', 'hlw'],
    priority: 0,
    hazardous: false,
    group: null,
    groupOrder: Number.MAX_SAFE_INTEGER,
    color: null,
    ...fields,
  };
}

/** A truck definition, 300 × 200 × 200 cm, 1000 kg, one listed, one blocked corner at the door. */
export function truck(): VehicleModel {
  return {
    id: 'truck',
    name: 'Box truck',
    type: 'truck',
    length: 300,
    width: 200,
    height: 200,
    maxWeight: 1000,
    quantity: 1,
    blockedAreas: [{ x: 250, z: 150, length: 50, width: 50 }],
    floorLoadCapacity: 0,
    axles: null,
    auxDeck: null,
  };
}

/** The model of the small plan: items A (100×50×40, 10 kg, ×3), B (60³, 20 kg, not stackable, upright, ×2), C (10³, 1 kg, ×1). */
export function smallModel(): PackModel {
  return {
    vehicles: [truck()],
    items: [
      item({ id: 'A', label: 'Carton A', length: 100, width: 50, height: 40, weight: 10, quantity: 3 }),
      item({
        id: 'B',
        label: 'Crate B',
        length: 60,
        width: 60,
        height: 60,
        weight: 20,
        quantity: 2,
        stackable: false,
        orientations: ['lwh', 'wlh'],
      }),
      item({ id: 'C', length: 10, width: 10, height: 10, weight: 1, quantity: 1 }),
    ],
    packingMode: 'auto',
    maxVehicles: 3,
    allowOverweight: false,
    maxStackItems: 2,
    maxStackDensity: 0,
    enforceAxle: false,
    groupRouting: 'none',
    budgetMs: 1000,
    seed: 1,
  };
}

function place(p: Omit<Placement, 'rotated'>): Placement {
  return { ...p, rotated: p.orientation !== 'lwh' };
}

/**
 * The small valid plan. Vehicle 0 (truck copy 1): A#1 and A#2 side by side on the floor, A#3
 * turned (wlh: 50 × 100 × 40) across both at y 40, B#1 on the floor at x 100. Vehicle 1 (truck
 * copy 2, auto-added): B#2. C#1 unplaced (time_limit).
 * Vehicle 0 figures: 4 units, 50 kg; volume 3·200 000 + 216 000 = 816 000 of 12 000 000 cm³ =
 * 0.068; weight 0.05; CoG = (10·50 + 10·50 + 10·25 + 20·130, 10·20 + 10·20 + 10·60 + 20·30,
 * 10·25 + 10·75 + 10·50 + 20·30) / 50 = (77, 32, 42).
 * Vehicle 1: 1 unit, 20 kg, 0.018, 0.02, CoG (30, 30, 30).
 */
export function smallPlan(): Plan {
  const t = truck();
  const common = {
    vehicle_id: 'truck',
    name: t.name,
    type: t.type,
    length: 300,
    width: 200,
    height: 200,
    max_weight: 1000,
  } as const;
  const v0: PlannedVehicle = {
    ...common,
    index: 0,
    copy: 1,
    auto_added: false,
    items_placed: 4,
    total_weight: 50,
    volume_utilization: 0.068,
    weight_utilization: 0.05,
    center_of_gravity: { x: 77, y: 32, z: 42 },
    placements: [
      place({
        item_id: 'A',
        instance: 1,
        label: 'Carton A',
        x: 0,
        y: 0,
        z: 0,
        length: 100,
        width: 50,
        height: 40,
        orientation: 'lwh',
        step: 1,
        weight: 10,
      }),
      place({
        item_id: 'A',
        instance: 2,
        label: 'Carton A',
        x: 0,
        y: 0,
        z: 50,
        length: 100,
        width: 50,
        height: 40,
        orientation: 'lwh',
        step: 2,
        weight: 10,
      }),
      place({
        item_id: 'B',
        instance: 1,
        label: 'Crate B',
        x: 100,
        y: 0,
        z: 0,
        length: 60,
        width: 60,
        height: 60,
        orientation: 'lwh',
        step: 3,
        weight: 20,
      }),
      place({
        item_id: 'A',
        instance: 3,
        label: 'Carton A',
        x: 0,
        y: 40,
        z: 0,
        length: 50,
        width: 100,
        height: 40,
        orientation: 'wlh',
        step: 4,
        weight: 10,
      }),
    ],
  };
  const v1: PlannedVehicle = {
    ...common,
    index: 1,
    copy: 2,
    auto_added: true,
    items_placed: 1,
    total_weight: 20,
    volume_utilization: 0.018,
    weight_utilization: 0.02,
    center_of_gravity: { x: 30, y: 30, z: 30 },
    placements: [
      place({
        item_id: 'B',
        instance: 2,
        label: 'Crate B',
        x: 0,
        y: 0,
        z: 0,
        length: 60,
        width: 60,
        height: 60,
        orientation: 'lwh',
        step: 1,
        weight: 20,
      }),
    ],
  };
  return { vehicles: [v0, v1], unplaced: [{ item_id: 'C', instance: 1, label: 'C', reason: 'time_limit' }] };
}

/** Recomputes a vehicle's figures from its placements (test-side, independent of the verifier). */
export function refigure(vehicle: PlannedVehicle): void {
  const ps = vehicle.placements;
  const weight = ps.reduce((s, p) => s + p.weight, 0);
  const volume = ps.reduce((s, p) => s + p.length * p.width * p.height, 0);
  const mean = (centre: (p: Placement) => number): number =>
    weight > 0 ? ps.reduce((s, p) => s + p.weight * centre(p), 0) / weight : 0;
  vehicle.items_placed = ps.length;
  vehicle.total_weight = weight;
  vehicle.volume_utilization = volume / (vehicle.length * vehicle.width * vehicle.height);
  vehicle.weight_utilization = weight / vehicle.max_weight;
  vehicle.center_of_gravity = {
    x: mean((p) => p.x + p.length / 2),
    y: mean((p) => p.y + p.height / 2),
    z: mean((p) => p.z + p.width / 2),
  };
}

/** A box of a grid plan: cell origin plus size, cm. */
export interface GridBox {
  x: number;
  y: number;
  z: number;
  length: number;
  width: number;
  height: number;
  weight: number;
}

/**
 * One vehicle holding the given boxes, each its own item (`u<i>`, quantity 1, as defined), steps
 * in the given order; boxes must be listed so that supports come first.
 */
export function gridPlan(
  space: { length: number; width: number; height: number },
  boxes: readonly GridBox[],
): { model: PackModel; plan: Plan } {
  const vehicle: VehicleModel = {
    id: 'v',
    name: 'v',
    type: 'container',
    ...space,
    maxWeight: 1e9,
    quantity: 1,
    blockedAreas: [],
    floorLoadCapacity: 0,
    axles: null,
    auxDeck: null,
  };
  const model: PackModel = {
    vehicles: [vehicle],
    items: boxes.map((b, i) =>
      item({ id: `u${i}`, length: b.length, width: b.width, height: b.height, weight: b.weight, quantity: 1 }),
    ),
    packingMode: 'fleet_only',
    maxVehicles: 1,
    allowOverweight: false,
    maxStackItems: 0,
    maxStackDensity: 0,
    enforceAxle: false,
    groupRouting: 'none',
    budgetMs: 1000,
    seed: 1,
  };
  const planned: PlannedVehicle = {
    index: 0,
    vehicle_id: 'v',
    copy: 1,
    auto_added: false,
    name: 'v',
    type: 'container',
    ...space,
    max_weight: 1e9,
    items_placed: 0,
    total_weight: 0,
    volume_utilization: 0,
    weight_utilization: 0,
    center_of_gravity: { x: 0, y: 0, z: 0 },
    placements: boxes.map((b, i) => ({
      item_id: `u${i}`,
      instance: 1,
      label: `u${i}`,
      ...b,
      rotated: false,
      orientation: 'lwh',
      step: i + 1,
    })),
  };
  refigure(planned);
  return { model, plan: { vehicles: [planned], unplaced: [] } };
}
