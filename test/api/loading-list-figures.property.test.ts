/**
 * The loading list's figures are the ones people read (api/http/jobs/loading-list.ts): for any
 * plan, however noisy its coordinates, sizes and weights, every cell of a `_cm` or `_kg` column
 * of the CSV is empty or a number with at most one decimal, within half a unit of that decimal
 * (0.05 cm, 0.05 kg) of the plan's figure.
 */
import t from 'tap';
import fc from 'fast-check';
import Papa from 'papaparse';
import { LOADING_LIST_COLUMNS, loadingListRows } from '../../api/http/jobs/loading-list.js';
import { loadingListCsv } from '../../api/http/jobs/loading-list-files.js';
import type { Placement, Plan } from '../../domain/pack/plan.js';
import { modelOf } from '../helpers/example-model.js';
import { propertyRuns } from '../helpers/property-runs.js';

/** A figure with float noise: any double in [min, max], or a sum of tenths (0.1 + 0.2 …). */
const noisy = (min: number, max: number) =>
  fc.oneof(
    fc.double({ min, max, noNaN: true }),
    fc
      .array(fc.constantFrom(0.1, 0.2, 0.7, 61.4906), { minLength: 1, maxLength: 6 })
      .map((xs) => xs.reduce((a: number, b) => a + b, 0)),
  );

// Sizes from the smallest a request accepts (0.1 cm).
const itemArb = fc.record({
  length: noisy(0.1, 150),
  width: noisy(0.1, 150),
  height: noisy(0.1, 150),
  weight: noisy(0.001, 5000),
});

const planArb = fc.array(itemArb, { minLength: 1, maxLength: 3 }).chain((items) =>
  fc.record({
    items: fc.constant(items),
    units: fc.array(
      fc.record({
        item: fc.nat({ max: items.length - 1 }),
        x: noisy(0, 1000),
        y: noisy(0, 250),
        z: noisy(0, 250),
        stacked: fc.boolean(),
      }),
      { minLength: 1, maxLength: 12 },
    ),
    unplaced: fc.nat({ max: 2 }),
  }),
);

/** The `_cm` and `_kg` columns of the list. */
const FIGURE_COLUMNS = ['x_cm', 'y_cm', 'z_cm', 'length_cm', 'width_cm', 'height_cm', 'weight_kg'] as const;
/** The plan's figure behind a cell of `column` on the row of `p` (null on an unplaced row: the cell is empty). */
const figureOf = (p: Placement | undefined, column: (typeof FIGURE_COLUMNS)[number]): number | null => {
  if (!p) return null;
  return {
    x_cm: p.x,
    y_cm: p.y,
    z_cm: p.z,
    length_cm: p.length,
    width_cm: p.width,
    height_cm: p.height,
    weight_kg: p.weight,
  }[column];
};

t.test('every cm and kg cell of the CSV has at most one decimal and rounds the plan figure', async (t) => {
  t.same(
    LOADING_LIST_COLUMNS.filter((c) => /_(cm|kg)$/.test(c)),
    [...FIGURE_COLUMNS],
    'every cm and kg column is checked',
  );
  let cells = 0;
  fc.assert(
    fc.property(planArb, ({ items, units, unplaced }) => {
      const body = {
        vehicles: [{ id: 'v', type: 'truck', length: 2000, width: 500, height: 500, max_weight: 100000 }],
        items: items.map((it, i) => ({ id: `sku-${i}`, ...it, quantity: units.length + unplaced })),
      };
      const { model } = modelOf(body);
      const instances = items.map(() => 0);
      const placements: Placement[] = [];
      for (const u of units) {
        const item = items[u.item]!;
        // Some units stand exactly on the one before them: rests_on is read for noisy heights too.
        const under = u.stacked ? placements.at(-1) : undefined;
        placements.push({
          item_id: `sku-${u.item}`,
          instance: ++instances[u.item]!,
          label: `SKU ${u.item}`,
          x: under ? under.x : u.x,
          y: under ? under.y + under.height : u.y,
          z: under ? under.z : u.z,
          length: item.length,
          width: item.width,
          height: item.height,
          rotated: false,
          orientation: 'lwh',
          step: placements.length + 1,
          weight: item.weight,
        });
      }
      const plan: Plan = {
        vehicles: [
          {
            index: 0,
            vehicle_id: 'v',
            copy: 1,
            auto_added: false,
            name: 'V',
            type: 'truck',
            length: 2000,
            width: 500,
            height: 500,
            max_weight: 100000,
            items_placed: placements.length,
            total_weight: placements.reduce((s, p) => s + p.weight, 0),
            volume_utilization: 0.1,
            weight_utilization: 0.1,
            center_of_gravity: { x: 0, y: 0, z: 0 },
            placements,
          },
        ],
        unplaced: Array.from({ length: unplaced }, (_, k) => ({
          item_id: 'sku-0',
          instance: 1000 + k,
          label: 'SKU 0',
          reason: 'no_space' as const,
        })),
      };
      const csv = loadingListCsv(loadingListRows(plan, model));
      const parsed = Papa.parse<Record<string, string>>(csv.trimEnd(), { header: true });
      if (parsed.errors.length > 0) throw new Error(JSON.stringify(parsed.errors));
      parsed.data.forEach((row, r) => {
        for (const column of FIGURE_COLUMNS) {
          const cell = row[column]!;
          const figure = figureOf(placements[r], column);
          if (figure === null) {
            if (cell !== '') throw new Error(`row ${r + 1} ${column}: ${cell} on an unplaced unit`);
            continue;
          }
          cells++;
          if (!/^-?\d+(\.\d)?$/.test(cell)) throw new Error(`row ${r + 1} ${column}: "${cell}" (from ${figure})`);
          if (Math.abs(Number(cell) - figure) > 0.05 + 1e-9)
            throw new Error(`row ${r + 1} ${column}: ${cell} is not ${figure} rounded to one decimal`);
        }
      });
    }),
    propertyRuns(200, 14),
  );
  t.ok(cells > 0, `${cells} figures checked`);
});
