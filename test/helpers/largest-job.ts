/**
 * The largest job a caller may send under the default limits (spec Limits: 2,000 item units,
 * 20 vehicle units; names and labels 255 characters, ids and group names 128, `reference` 128;
 * 32 blocked areas and 10 axles per vehicle), every optional field set, and a plan as large as
 * such a job can produce. Text is drawn from a mixed alphabet (ASCII, Latin-1, Greek, CJK) with a
 * fixed seed, so it compresses like real-world text at its worst and the same call gives the same
 * bytes. Used by the event-size tests and `npm run bench -- event-size`.
 */
import type { PackRequest } from '../../domain/pack/request.js';
import type { Plan, PlannedVehicle, Placement, UnplacedUnit } from '../../domain/pack/plan.js';
import { mulberry32, type Random } from '../../solver/search/prng.js';

/** Characters of generated text: 1-, 2- and 3-byte UTF-8, all in the BMP (one per code point). */
const ALPHABET = [
  ...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 -_/.#',
  ...'ÄÖÜäöüßéèêàçñøåæ',
  ...'αβγδεζηθλμπστφω',
  ...'貨物箱托盘重量尺寸車両積載',
];

/** `length` characters of text from `rng` (a prefix keeps ids unique). */
function text(rng: Random, length: number, prefix = ''): string {
  let out = prefix;
  while ([...out].length < length) out += ALPHABET[Math.floor(rng() * ALPHABET.length)]!;
  return out;
}

/** Options of {@link largestJobRequest}. */
export interface LargestJobOptions {
  /** Item units (each its own item definition with quantity 1). Default 2,000 (spec Limits). */
  units?: number;
  /** Characters per label and vehicle name. Default 255 (spec Limits rule 5). */
  labelLength?: number;
}

/**
 * A PackRequest at the limits: `units` item definitions of one unit each with every optional
 * field (128-character id and group, `labelLength`-character label, each item its own group),
 * 20 trailers with every optional field (32 blocked areas, 10 axles, aux deck, the semi-trailer
 * fields), every option, a 128-character reference. Accepted by checkPackRequest with
 * SCRIPT_CHECK_CONTEXT (axle fields are accepted and ignored without axle access).
 */
export function largestJobRequest(options: LargestJobOptions = {}): PackRequest {
  const units = options.units ?? 2000;
  const labelLength = options.labelLength ?? 255;
  const rng = mulberry32(20261126);
  const vehicles = Array.from({ length: 20 }, (_, v) => ({
    id: text(rng, 128, `veh${v}-`),
    type: 'trailer' as const,
    name: text(rng, labelLength),
    length: 1360,
    width: 248,
    height: 270,
    max_weight: 24_000,
    quantity: 1,
    floor_load_capacity: 5000,
    aux_deck: true,
    aux_deck_height: 130,
    aux_deck_max_weight: 8000,
    blocked_areas: Array.from({ length: 32 }, (_, i) => ({
      x: 1300 + (i % 4) * 10,
      z: Math.floor(i / 4) * 20,
      length: 5,
      width: 5,
    })),
    axle_positions: Array.from({ length: 10 }, (_, i) => 100 + i * 120),
    axle_max_loads: Array.from({ length: 10 }, () => 10_000),
    cog_range_x: 300,
    cog_range_y: 50,
    tractor_weight: 7500,
    empty_trailer_weight: 6500,
    front_axle_to_middle_axle: 360,
    front_axle_to_tractor_cog: 150,
    front_axle_to_kingpin: 320,
    kingpin_to_rear_axle: 770,
    trailer_cog_to_rear_axle: 350,
    trailer_start_to_kingpin: 160,
    max_middle_axle_weight: 11_500,
    max_rear_axle_weight: 24_000,
  }));
  const items = Array.from({ length: units }, (_, i) => ({
    id: text(rng, 128, `item${i}-`),
    label: text(rng, labelLength),
    shape: 'box' as const,
    length: 20 + Math.floor(rng() * 80) + 0.5,
    width: 20 + Math.floor(rng() * 60) + 0.25,
    height: 20 + Math.floor(rng() * 60) + 0.75,
    weight: 1 + Math.floor(rng() * 400) / 10,
    quantity: 1,
    stackable: true,
    max_stack_weight: 500,
    rotation: 'upright' as const,
    hazardous: i % 97 === 0,
    priority: i % 5,
    group: text(rng, 128, `g${i}-`),
    color: `#${Math.floor(rng() * 0xffffff)
      .toString(16)
      .padStart(6, '0')}`,
    nesting_height: 2,
  }));
  const groups = items.map((it, i) => ({ name: it.group, order: i + 1, color: it.color }));
  return {
    reference: text(rng, 128, 'ref-'),
    vehicles,
    items,
    groups,
    options: {
      packing_mode: 'fleet_only',
      group_routing: 'routing',
      allow_overweight: false,
      max_stack_items: 4,
      max_stack_density_kg_m2: 2000,
      lock_rotations: false,
      group_identical_bins: true,
      time_limit: 90,
      enforce_axle: false,
      seed: 7,
      work_limit: 1_000_000,
    },
  };
}

/**
 * A plan as large as the largest job can produce, without solving: every unit of `request`
 * placed (its id and label, made-up coordinates) over 20 vehicles with axle loads, or, with
 * `unplacedShare` (0–1), that share of units listed as unplaced instead.
 */
export function largestJobPlan(request: PackRequest, unplacedShare = 0): Plan {
  const rng = mulberry32(7);
  const vehicleCount = request.vehicles.length;
  const placements: Placement[][] = Array.from({ length: vehicleCount }, () => []);
  const unplaced: UnplacedUnit[] = [];
  request.items.forEach((item, i) => {
    const label = item.label ?? item.id ?? '';
    if (rng() < unplacedShare) {
      unplaced.push({ item_id: item.id!, instance: i + 1, label, reason: 'no_space' });
      return;
    }
    const v = i % vehicleCount;
    placements[v]!.push({
      item_id: item.id!,
      instance: i + 1,
      label,
      x: Math.round(rng() * 130_000) / 100,
      y: Math.round(rng() * 25_000) / 100,
      z: Math.round(rng() * 24_000) / 100,
      length: item.length!,
      width: item.width!,
      height: item.height!,
      rotated: rng() < 0.5,
      orientation: rng() < 0.5 ? 'lwh' : 'wlh',
      step: placements[v]!.length + 1,
      weight: item.weight!,
    });
  });
  const vehicles: PlannedVehicle[] = placements.map((ps, index) => {
    const def = request.vehicles[index]!;
    const total = ps.reduce((s, p) => s + p.weight, 0);
    return {
      index,
      vehicle_id: def.id!,
      copy: 1,
      auto_added: false,
      name: def.name!,
      type: 'trailer',
      length: def.length!,
      width: def.width!,
      height: def.height!,
      max_weight: def.max_weight!,
      items_placed: ps.length,
      total_weight: total,
      volume_utilization: 0.61803398875,
      weight_utilization: total / def.max_weight!,
      center_of_gravity: { x: 612.3456789, y: 80.123456789, z: 123.987654321 },
      placements: ps,
      axle_loads: def.axle_positions!.map((position, a) => ({
        name: `Axle ${a + 1}`,
        position,
        load: 1234.5678,
        max: 10_000,
        ok: true,
      })),
    };
  });
  return { vehicles, unplaced };
}
