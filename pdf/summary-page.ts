/**
 * The cover/summary pages of the load plan: the header block (reference, job, plan date, empty
 * seal number and signature fields), totals, the list of loaded vehicles with their loading
 * metres and the pages where each is, the packing list of all items per vehicle, and the
 * unplaced units grouped by item with their reasons. Continues on further pages when the lists
 * are long.
 */
import { loadingMetres } from '../domain/pack/loading-metres.js';
import type { Plan, UnplacedUnit } from '../domain/pack/plan.js';
import { drawHeaderBlock } from './header-block.js';
import { CONTENT_BOTTOM, CONTENT_WIDTH, type Doc, MARGIN, formatNumber, formatPercent, textCell } from './page.js';
import { type Cell, type Column, type RowSlot, flowTable, tableWidth } from './table.js';
import { innerSize } from './vehicle-page.js';
import { columnsIn, measures, type Measures } from './measures.js';

/** Plan totals shown on the summary page (spec JobSummary terms). */
export interface PlanTotals {
  vehiclesUsed: number;
  unitsPlaced: number;
  unitsRequested: number;
  unitsUnplaced: number;
  /** kg over all vehicles. */
  totalWeight: number;
  /** 0–1, mean over the used vehicles; 0 with none. */
  meanVolumeUtilization: number;
  /** Loading metres over all vehicles, m. */
  loadingMetres: number;
}

/** Totals of `plan`: requested = placed + unplaced. */
export function planTotals(plan: Plan): PlanTotals {
  const unitsPlaced = plan.vehicles.reduce((s, v) => s + v.placements.length, 0);
  const n = plan.vehicles.length;
  return {
    vehiclesUsed: n,
    unitsPlaced,
    unitsRequested: unitsPlaced + plan.unplaced.length,
    unitsUnplaced: plan.unplaced.length,
    totalWeight: plan.vehicles.reduce((s, v) => s + v.total_weight, 0),
    meanVolumeUtilization: n === 0 ? 0 : plan.vehicles.reduce((s, v) => s + v.volume_utilization, 0) / n,
    loadingMetres: plan.vehicles.reduce((s, v) => s + loadingMetres(v.placements), 0),
  };
}

/** Unplaced units of one item: count, instance numbers and reason counts. */
export interface UnplacedGroup {
  itemId: string;
  label: string;
  instances: number[];
  reasons: Map<string, number>;
}

/** Groups unplaced units by item_id, in order of first appearance; instances ascending. */
export function groupUnplaced(units: readonly UnplacedUnit[]): UnplacedGroup[] {
  const groups = new Map<string, UnplacedGroup>();
  for (const u of units) {
    let g = groups.get(u.item_id);
    if (g === undefined) {
      g = { itemId: u.item_id, label: u.label, instances: [], reasons: new Map() };
      groups.set(u.item_id, g);
    }
    g.instances.push(u.instance);
    g.reasons.set(u.reason, (g.reasons.get(u.reason) ?? 0) + 1);
  }
  for (const g of groups.values()) g.instances.sort((a, b) => a - b);
  return [...groups.values()];
}

/** "1–5, 8, 10–11": ascending integers as ranges. */
export function instanceRanges(sorted: readonly number[]): string {
  const parts: string[] = [];
  let i = 0;
  while (i < sorted.length) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    parts.push(i === j ? String(sorted[i]) : `${sorted[i]}–${sorted[j]}`);
    i = j + 1;
  }
  return parts.join(', ');
}

const VEHICLE_COLUMNS: readonly Column[] = [
  { title: '#', width: 22, align: 'right' },
  { title: 'Name', width: 136 },
  { title: 'vehicle_id', width: 100 },
  { title: 'Copy', width: 52 },
  { title: 'Type', width: 52 },
  { title: 'Inner L × W × H', width: 110 },
  { title: 'Units', width: 40, align: 'right' },
  { title: 'Weight kg', width: 62, align: 'right' },
  { title: 'Payload', width: 50, align: 'right' },
  { title: 'Volume', width: 50, align: 'right' },
  { title: 'LDM m', width: 46, align: 'right' },
  { title: 'Pages', width: 66, align: 'right' },
];

const PACKING_COLUMNS: readonly Column[] = [
  { title: 'item_id', width: 130 },
  { title: 'Item', width: 290 },
  { title: 'Units', width: 50, align: 'right' },
  { title: 'Weight kg', width: 70, align: 'right' },
  { title: 'Per vehicle (vehicle #: units)', width: 246 },
];

/** One row of the plan's packing list: an item and its placed units per vehicle. */
export interface PackingLine {
  itemId: string;
  label: string;
  units: number;
  /** kg of its placed units. */
  weight: number;
  /** Placed units per vehicle, by 1-based vehicle number, ascending. */
  perVehicle: Array<[vehicle: number, units: number]>;
}

/** The packing list of `plan`: every placed item, in order of first appearance (vehicle, then step). */
export function packingList(plan: Plan): PackingLine[] {
  const lines = new Map<string, PackingLine & { byVehicle: Map<number, number> }>();
  for (const v of plan.vehicles) {
    for (const p of [...v.placements].sort((a, b) => a.step - b.step)) {
      let l = lines.get(p.item_id);
      if (l === undefined)
        lines.set(
          p.item_id,
          (l = { itemId: p.item_id, label: p.label, units: 0, weight: 0, perVehicle: [], byVehicle: new Map() }),
        );
      l.units++;
      l.weight += p.weight;
      l.byVehicle.set(v.index + 1, (l.byVehicle.get(v.index + 1) ?? 0) + 1);
    }
  }
  return [...lines.values()].map(({ byVehicle, ...l }) => ({
    ...l,
    perVehicle: [...byVehicle.entries()].sort((a, b) => a[0] - b[0]),
  }));
}

const UNPLACED_COLUMNS: readonly Column[] = [
  { title: 'item_id', width: 140 },
  { title: 'Item', width: 200 },
  { title: 'Units', width: 40, align: 'right' },
  { title: 'Instances', width: 226 },
  { title: 'Reasons', width: 180 },
];

/**
 * Draws the summary on the current page (adding pages with `addPage` when the lists are long).
 * The "Pages" cells of the vehicle table are left empty: the vehicles' pages are not drawn yet.
 * Returns where each vehicle row went, for fillVehiclePages.
 */
export function drawSummary(
  doc: Doc,
  head: { jobId: string; reference?: string; createdAt: string },
  plan: Plan,
  addPage: () => void,
  m: Measures = measures(),
): RowSlot[] {
  let y = drawHeaderBlock(doc, head, MARGIN) + 10;
  textCell(doc, 'Load plan', MARGIN, y, 300, { size: 22, bold: true });
  textCell(doc, `created ${head.createdAt}`, MARGIN + 300, y + 10, CONTENT_WIDTH - 300, {
    size: 8,
    align: 'right',
    colour: '#555555',
  });
  y += 34;

  const t = planTotals(plan);
  const tiles: Array<[string, string]> = [
    ['Vehicles used', String(t.vehiclesUsed)],
    ['Units placed / requested', `${t.unitsPlaced} / ${t.unitsRequested}`],
    ['Unplaced units', String(t.unitsUnplaced)],
    ['Total weight', `${m.weight(t.totalWeight)} ${m.weightUnit}`],
    ['Mean volume utilization', formatPercent(t.meanVolumeUtilization)],
    ['Loading metres (LDM)', `${formatNumber(t.loadingMetres, 2)} m`],
  ];
  const gap = 8;
  const tileWidth = (CONTENT_WIDTH - gap * (tiles.length - 1)) / tiles.length;
  tiles.forEach(([label, value], i) => {
    const x = MARGIN + i * (tileWidth + gap);
    const warn = i === 2 && t.unitsUnplaced > 0;
    doc
      .roundedRect(x, y, tileWidth, 44, 4)
      .lineWidth(0.8)
      .fillAndStroke(warn ? '#fff0e6' : '#f1f4f7', warn ? '#d9480f' : '#9aa8b6');
    textCell(doc, label, x + 8, y + 7, tileWidth - 16, { size: 8, colour: '#555555' });
    textCell(doc, value, x + 8, y + 20, tileWidth - 16, { size: 15, bold: true, colour: warn ? '#d9480f' : '#000000' });
  });
  y += 58;

  const continued = (): number => {
    addPage();
    textCell(doc, `Load plan ${head.jobId}  ·  summary (continued)`, MARGIN, MARGIN, CONTENT_WIDTH, {
      size: 12,
      bold: true,
    });
    return MARGIN + 24;
  };
  const section = (title: string): void => {
    if (y + 40 > CONTENT_BOTTOM) y = continued();
    textCell(doc, title, MARGIN, y, CONTENT_WIDTH, { size: 12, bold: true });
    y += 17;
  };

  section('Vehicles in loading order');
  let slots: RowSlot[] = [];
  if (plan.vehicles.length === 0) {
    textCell(doc, 'No vehicle was loaded.', MARGIN, y, CONTENT_WIDTH, { size: 9 });
    y += 14;
  } else {
    const rows: Cell[][] = plan.vehicles.map((v) => {
      return [
        String(v.index + 1),
        v.name,
        v.vehicle_id,
        `${v.copy}${v.auto_added ? ' (auto)' : ''}`,
        v.type,
        innerSize(v, m),
        String(v.items_placed),
        m.weight(v.total_weight),
        formatPercent(v.weight_utilization),
        formatPercent(v.volume_utilization),
        formatNumber(loadingMetres(v.placements), 2),
        '',
      ];
    });
    const flowed = flowTable(doc, columnsIn(VEHICLE_COLUMNS, m), rows, MARGIN, y, CONTENT_BOTTOM, continued);
    y = flowed.y;
    slots = flowed.slots;
  }
  y += 16;

  const packing = packingList(plan);
  if (packing.length > 0) {
    section('Packing list');
    const rows: Cell[][] = packing.map((l) => [
      l.itemId,
      l.label,
      String(l.units),
      m.weight(l.weight),
      l.perVehicle.map(([n, u]) => `#${n}: ${u}`).join('  ·  '),
    ]);
    y = flowTable(doc, columnsIn(PACKING_COLUMNS, m), rows, MARGIN, y, CONTENT_BOTTOM, continued).y + 16;
  }

  section('Unplaced units');
  const groups = groupUnplaced(plan.unplaced);
  if (groups.length === 0) {
    textCell(doc, 'All units are placed.', MARGIN, y, CONTENT_WIDTH, { size: 9 });
    return slots;
  }
  const rows: Cell[][] = groups.map((g) => [
    g.itemId,
    g.label,
    String(g.instances.length),
    instanceRanges(g.instances),
    [...g.reasons.entries()].map(([r, c]) => `${r} × ${c}`).join(', '),
  ]);
  flowTable(doc, UNPLACED_COLUMNS, rows, MARGIN, y, CONTENT_BOTTOM, continued);
  return slots;
}

/**
 * Writes each vehicle's 1-based page range into the "Pages" cell of its summary row, once the
 * vehicle pages exist. Switches pages: the caller must switch back or add a page afterwards.
 */
export function fillVehiclePages(
  doc: Doc,
  slots: readonly RowSlot[],
  pages: ReadonlyArray<{ first: number; last: number }>,
): void {
  const last = VEHICLE_COLUMNS[VEHICLE_COLUMNS.length - 1]!;
  const x = MARGIN + tableWidth(VEHICLE_COLUMNS) - last.width;
  slots.forEach((slot, i) => {
    const p = pages[i];
    if (p === undefined) return;
    doc.switchToPage(slot.page);
    textCell(doc, p.first === p.last ? `${p.first}` : `${p.first}–${p.last}`, x + 3, slot.y + 2.2, last.width - 6, {
      size: 8,
      align: 'right',
    });
  });
}
