/**
 * The playground's import into a request that has items (web app: item files), the estimate's
 * problems named by item, label and file row, the sentence an estimate without vehicles shows,
 * the CSV template that imports back to its example item, and Stop/Drop columns read as groups.
 */
import t from 'tap';
import { itemsFromCsv } from '../../webapp/src/import/csv.js';
import { columnOfHeader } from '../../webapp/src/import/item-columns.js';
import { carryOrigin, originOf, rememberOrigins } from '../../webapp/src/import/item-origins.js';
import { itemTemplateCsv, TEMPLATE_EXAMPLE } from '../../webapp/src/import/item-template.js';
import { describeEstimateDetail, missingForEstimate } from '../../webapp/src/playground/estimate-problems.js';
import { itemsOf, replaceableItemCount, withImportedItems } from '../../webapp/src/playground/request-edits.js';

const A = { label: 'A', length: 1, width: 1, height: 1, weight: 1, quantity: 1 };
const B = { label: 'B', length: 2, width: 2, height: 2, weight: 2, quantity: 2 };

t.test('an import replaces the items or adds to them; every other field is kept', async (t) => {
  const request = { reference: 'r', vehicles: [{ vehicle_id: 'v' }], items: [A], options: { packing_mode: 'auto' } };
  t.same(withImportedItems(request, [B], 'replace'), { ...request, items: [B] });
  t.same(withImportedItems(request, [B], 'add'), { ...request, items: [A, B] });
  t.same(itemsOf(withImportedItems({}, [B], 'add')), [B]);
  const pick = { template_id: 'tpl_1', quantity: 3 };
  const picked = { items: [pick, A] };
  t.equal(replaceableItemCount(picked), 1, 'a template pick is the picker’s, not counted');
  t.equal(replaceableItemCount({ items: [pick] }), 0);
  t.same(itemsOf(withImportedItems(picked, [B], 'replace')), [pick, B], 'a template pick stays on replace');
});

t.test('an import keeps the file row of each item, skipping blank rows', async (t) => {
  const out = itemsFromCsv('label,length,width,height,weight,quantity\nA,1,1,1,1,1\n\nB,2,2,2,2,2\n');
  t.ok(out.ok);
  if (!out.ok) return;
  t.same(out.rows, [2, 4]);
  const items = rememberOrigins(out.items, out.rows, 'load.csv');
  t.same(originOf(items[1]), { fileName: 'load.csv', row: 4 });
  t.equal(originOf({ ...items[1]! }), undefined, 'a copy re-read from the JSON has no origin');
  const edited = carryOrigin(items[1], { ...items[1]!, quantity: 7 });
  t.same(originOf(edited), { fileName: 'load.csv', row: 4 }, 'a cell edit in the table keeps the file row');
  t.equal(
    originOf(carryOrigin({ label: 'typed' }, { label: 'typed', quantity: 2 })),
    undefined,
    'a typed item has none',
  );
});

t.test('estimate problems name the item, its label and its file row', async (t) => {
  const items = [A, { label: 'EUR pallet', length: 120, width: 80, height: 150, weight: 250, quantity: 1 }];
  const rows = new Map<unknown, { fileName: string; row: number }>([[items[1], { fileName: 'file.csv', row: 27 }]]);
  const origin = (item: unknown) => rows.get(item);
  t.equal(
    describeEstimateDetail({ path: 'items[1].id', message: 'item id "x" is already used by items[0]' }, items, origin),
    'item 2 (EUR pallet) — row 27 of file.csv, id: item id "x" is already used by item 1 (A)',
  );
  t.equal(
    describeEstimateDetail({ path: 'items[0].max_stack_weight', message: 'must be >= 0' }, items, origin),
    'item 1 (A), max stack weight: must be >= 0',
    'a typed item has no row',
  );
  t.equal(
    describeEstimateDetail({ path: 'items[1]', message: 'does not fit' }, items, origin),
    'item 2 (EUR pallet) — row 27 of file.csv: does not fit',
  );
  t.equal(
    describeEstimateDetail({ path: 'vehicles', message: 'must have at least 1 entry' }, items, origin),
    'vehicles: must have at least 1 entry',
  );
  t.equal(
    describeEstimateDetail({ path: 'items[7].id', message: 'bad' }, items, origin),
    'item 8, id: bad',
    'an item the table does not have',
  );
});

t.test('an estimate without vehicles or items says what is missing', async (t) => {
  t.match(missingForEstimate(0, 3), /^Choose a vehicle to see the estimate/);
  t.match(missingForEstimate(0, 0), /^Choose a vehicle/);
  t.match(missingForEstimate(1, 0), /^Add items/);
  t.equal(missingForEstimate(2, 1), null);
});

t.test('the CSV template names every column with its unit and imports back to its example item', async (t) => {
  const csv = itemTemplateCsv();
  const header = csv.split('\n')[0]!.split(',');
  t.equal(header.length, 18, 'every column of the import');
  t.ok(header.includes('length (cm)') && header.includes('weight (kg)') && header.includes('max_stack_weight (kg)'));
  for (const units of ['metric', 'imperial'] as const) {
    const out = itemsFromCsv(csv, { displayUnits: units });
    t.same(out, { ok: true, items: [TEMPLATE_EXAMPLE], rows: [2], ignored: [] }, `read back in ${units} units`);
  }
});

t.test('a Stop or Drop column is the item group', async (t) => {
  for (const h of ['Stop', 'DROP', 'Stop no.', 'Drop #', 'stop_no', 'Drop no', 'Group'])
    t.equal(columnOfHeader(h)?.field, 'group', h);
  const out = itemsFromCsv('Label,Length,Width,Height,Weight,Qty,Drop #\nA,1,1,1,1,1,3\n');
  t.same(out.ok && out.items[0]?.group, '3');
});
