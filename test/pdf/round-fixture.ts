/**
 * Hand-built plans of round cargo for the render and viewer tests, no solver
 * involved: 200 l drums (radius 29.5 cm, height 88 cm) in 4 staggered lines of 9 on the floor
 * of a 20 ft container (589 × 235 cm: 36 drums, the hand-worked case), and a mixed load
 * in a 13.6 m trailer: EUR pallets at the front wall, staggered drums two high behind them, and
 * paper rolls lying along the length and across the width.
 */
import type { Placement, Plan, PlannedVehicle } from '../../domain/pack/plan.js';

/** A drum's radius and height, cm, and weight, kg. */
export const DRUM = { radius: 29.5, height: 88, weight: 220 } as const;
/** Row pitch of staggered lines of drums: r·√3, cm. */
export const DRUM_PITCH = DRUM.radius * Math.sqrt(3);

/** An item definition of the fixture (the viewer's ViewerItem fields). */
export interface RoundFixtureItem {
  id: string;
  label: string;
  shape: 'box' | 'pallet' | 'cylinder' | 'drum';
  /** Bounding box as defined, cm (round: 2·radius × 2·radius × height). */
  length: number;
  width: number;
  height: number;
  weight: number;
}

export const ITEMS: readonly RoundFixtureItem[] = [
  {
    id: 'drum-200',
    label: 'Drum 200 l',
    shape: 'drum',
    length: 2 * DRUM.radius,
    width: 2 * DRUM.radius,
    height: DRUM.height,
    weight: DRUM.weight,
  },
  { id: 'pal-eur', label: 'EUR pallet', shape: 'pallet', length: 120, width: 80, height: 140, weight: 500 },
  { id: 'roll', label: 'Paper roll', shape: 'cylinder', length: 60, width: 60, height: 120, weight: 300 },
];

const itemOf = (id: string): RoundFixtureItem => ITEMS.find((it) => it.id === id)!;

/** A placement of item `id` at min corner (x, y, z) with the sizes as placed; steps are set later. */
function unit(
  id: string,
  instance: number,
  x: number,
  y: number,
  z: number,
  size: [number, number, number],
  orientation: Placement['orientation'] = 'lwh',
): Placement {
  const it = itemOf(id);
  const r3 = (v: number) => Math.round(v * 1000) / 1000;
  return {
    item_id: id,
    instance,
    label: it.label,
    x: r3(x),
    y: r3(y),
    z: r3(z),
    length: size[0],
    width: size[1],
    height: size[2],
    rotated: orientation !== 'lwh',
    orientation,
    step: 0,
    weight: it.weight,
  };
}

/**
 * Staggered lines of drums along x from `x0`: `lines` lines across the width at the row pitch,
 * every second one shifted by a radius toward the door, `perLine` drums each, `layers` high.
 */
export function staggeredDrums(
  x0: number,
  lines: number,
  perLine: number,
  layers: number,
  firstInstance = 1,
): Placement[] {
  const d = 2 * DRUM.radius;
  const out: Placement[] = [];
  for (let k = 0; k < lines; k++) {
    for (let i = 0; i < perLine; i++) {
      for (let layer = 0; layer < layers; layer++) {
        // The pitch rounded up to a thousandth of a cm, so circles never cut into each other.
        const z = Math.round(k * Math.ceil(DRUM_PITCH * 1000)) / 1000;
        out.push(
          unit('drum-200', firstInstance + out.length, x0 + (k % 2) * DRUM.radius + i * d, layer * DRUM.height, z, [
            d,
            d,
            DRUM.height,
          ]),
        );
      }
    }
  }
  return out;
}

/** A planned vehicle of `placements`, steps from the front wall (x, then z, then y). */
function vehicleOf(
  index: number,
  id: string,
  name: string,
  type: PlannedVehicle['type'],
  size: [number, number, number],
  maxWeight: number,
  placements: Placement[],
): PlannedVehicle {
  const sorted = [...placements].sort((a, b) => a.x - b.x || a.z - b.z || a.y - b.y);
  sorted.forEach((p, i) => (p.step = i + 1));
  const total = sorted.reduce((s, p) => s + p.weight, 0);
  const moment = (f: (p: Placement) => number) => sorted.reduce((s, p) => s + f(p) * p.weight, 0) / total;
  // Placed volume as the verifier counts it: bounding boxes.
  const volume = sorted.reduce((s, p) => s + p.length * p.width * p.height, 0);
  return {
    index,
    vehicle_id: id,
    copy: 1,
    auto_added: false,
    name,
    type,
    length: size[0],
    width: size[1],
    height: size[2],
    max_weight: maxWeight,
    items_placed: sorted.length,
    total_weight: total,
    volume_utilization: volume / (size[0] * size[1] * size[2]),
    weight_utilization: total / maxWeight,
    center_of_gravity: {
      x: moment((p) => p.x + p.length / 2),
      y: moment((p) => p.y + p.height / 2),
      z: moment((p) => p.z + p.width / 2),
    },
    placements: sorted,
  };
}

/** 36 drums in 4 staggered lines of 9 in a 20 ft container (589 × 235 × 239 cm). */
export function containerOfDrums(index = 0): PlannedVehicle {
  return vehicleOf(index, 'c20', '20 ft container', 'container', [589, 235, 239], 28_000, staggeredDrums(0, 4, 9, 1));
}

/**
 * A 13.6 m trailer: 6 EUR pallets (2 across, 3 deep) at the front wall, then 4 staggered lines of
 * 6 drums two high (48 drums), then paper rolls lying: 4 along the length (axis x, two on the
 * floor and two on them) and 4 across the width (axis z).
 */
export function mixedTrailer(index = 1): PlannedVehicle {
  const placements: Placement[] = [];
  for (let i = 0; i < 6; i++)
    placements.push(unit('pal-eur', i + 1, Math.floor(i / 2) * 120, 0, (i % 2) * 80, [120, 80, 140]));
  const x0 = 360;
  const drums = staggeredDrums(x0, 4, 6, 2, 37);
  placements.push(...drums);
  const rollsX = x0 + 6 * 2 * DRUM.radius + DRUM.radius + 1;
  // Lying along x: the item's height (120) along the length, orientation `hwl`.
  for (let i = 0; i < 4; i++)
    placements.push(unit('roll', i + 1, rollsX, Math.floor(i / 2) * 60, (i % 2) * 60, [120, 60, 60], 'hwl'));
  // Lying across: the height along the width, orientation `lhw`.
  for (let i = 0; i < 4; i++) placements.push(unit('roll', i + 5, rollsX + 120 + i * 60, 0, 0, [60, 120, 60], 'lhw'));
  return vehicleOf(index, 'semi', 'Semi-trailer 13.6 m', 'trailer', [1360, 248, 270], 24_000, placements);
}

/** Both vehicles as a plan, nothing unplaced. */
export function roundPlan(): Plan {
  return { vehicles: [containerOfDrums(0), mixedTrailer(1)], unplaced: [] };
}
