/**
 * Item import of the playground (README "Web app: playground and jobs"): CSV and
 * .xlsx rows into pack items. Header variants in any case, units in brackets, decimal commas,
 * semicolon files, every bad cell named by row and column with nothing imported, and two
 * properties: a CSV written from random items imports back to the same items, and no text makes
 * the CSV reader throw.
 */
import t from 'tap';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { csvDelimiter, csvFromItems, itemsFromCsv } from '../../webapp/src/import/csv.js';
import { columnLetter, describeProblem, itemsFromRows } from '../../webapp/src/import/item-rows.js';
import { itemsFromXlsx } from '../../webapp/src/import/xlsx.js';
import { itemsFromFile } from '../../webapp/src/import/item-file.js';
import type { PackItem } from '../../webapp/src/playground/pack-request.js';
import { xlsxOf } from '../helpers/xlsx-file.js';

const bytesOf = (u: Uint8Array): ArrayBuffer =>
  u.buffer.slice(u.byteOffset, u.byteOffset + u.byteLength) as ArrayBuffer;

t.test('column letters', async (t) => {
  t.same([0, 1, 25, 26, 27, 51, 52, 701, 702].map(columnLetter), ['A', 'B', 'Z', 'AA', 'AB', 'AZ', 'BA', 'ZZ', 'AAA']);
});

t.test('the documented layout, header variants in any case, units in brackets', async (t) => {
  const csv = [
    'Name,Length (cm),WIDTH,h,Unit Weight [kg],Qty,Shape,Stackable,Rotation,Max_Stack_Weight,Group,Colour,Hazardous,Notes',
    'Pallet A,120,80,150,250.5,4,pallet,no,upright,500,Stop 1,1f77b4,yes,fragile',
    '',
    'Box B,60,40,40,12,10,,YES,,,,#FF0000,0,',
  ].join('\r\n');
  const out = itemsFromCsv(csv);
  t.same(out, {
    ok: true,
    rows: [2, 4],
    ignored: ['Notes'],
    items: [
      {
        label: 'Pallet A',
        length: 120,
        width: 80,
        height: 150,
        weight: 250.5,
        quantity: 4,
        shape: 'pallet',
        stackable: false,
        rotation: 'upright',
        max_stack_weight: 500,
        group: 'Stop 1',
        color: '#1f77b4',
        hazardous: true,
      },
      {
        label: 'Box B',
        length: 60,
        width: 40,
        height: 40,
        weight: 12,
        quantity: 10,
        stackable: true,
        color: '#FF0000',
        hazardous: false,
      },
    ],
  });
});

t.test('decimal commas in a semicolon file and in quoted comma cells; a byte-order mark', async (t) => {
  t.equal(csvDelimiter('label;length;width\n1,5;2'), ';');
  t.equal(csvDelimiter('label\tlength\n'), '\t');
  t.equal(csvDelimiter('label'), ',');
  const semi = itemsFromCsv('\uFEFFlabel;length;width;height;weight;quantity\nCrate;120,5;80;60,25;33,3;2\n');
  t.same(semi, {
    ok: true,
    rows: [2],
    ignored: [],
    items: [{ label: 'Crate', length: 120.5, width: 80, height: 60.25, weight: 33.3, quantity: 2 }],
  });
  const comma = itemsFromCsv('label,length,width,height,weight,quantity\nCrate,"120,5",80,60,"0,5",1\n');
  t.same(comma.ok && comma.items, [{ label: 'Crate', length: 120.5, width: 80, height: 60, weight: 0.5, quantity: 1 }]);
});

t.test('cylinders and drums: radius instead of length and width', async (t) => {
  const ok = itemsFromCsv('label,length,width,height,weight,quantity,shape,radius\nRoll,,,120,40,3,cylinder,30\n');
  t.same(ok.ok && ok.items, [{ label: 'Roll', height: 120, weight: 40, quantity: 3, shape: 'cylinder', radius: 30 }]);
  const noRadius = itemsFromCsv('label,length,width,height,weight,quantity,shape,radius\nDrum,,,90,200,2,drum,\n');
  t.same(noRadius.ok ? [] : noRadius.problems.map(describeProblem), [
    'row 2, column H (radius): radius is required for a cylinder or drum',
  ]);
  const noColumn = itemsFromCsv('label,length,width,height,weight,quantity,shape\nDrum,,,90,200,2,drum\n');
  t.same(noColumn.ok ? [] : noColumn.problems.map(describeProblem), [
    'row 2, column G (shape): a drum needs a radius column',
  ]);
});

t.test('a row naming a template leaves the other cells to it', async (t) => {
  const out = itemsFromCsv(
    'label,length,width,height,weight,quantity,template_id\n,,,,,3,tpl_abc\nOwn label,,,,,,tpl_abc\n',
  );
  t.same(out, {
    ok: true,
    rows: [2, 3],
    ignored: [],
    items: [
      { quantity: 3, template_id: 'tpl_abc' },
      { label: 'Own label', template_id: 'tpl_abc' },
    ],
  });
});

t.test('every bad cell is reported with its row and column, and nothing is imported', async (t) => {
  const csv = [
    'label,length,width,height,weight,quantity,shape,stackable,colour,priority',
    'Good,100,50,40,10,1,box,yes,#00ff00,0',
    ',abc,50,40,0,2.5,sphere,maybe,red,-1',
    'Big,100001,1.234,40,10,1,,,,',
    'Empty qty,10,10,10,10,,,,,',
  ].join('\n');
  const out = itemsFromCsv(csv);
  t.equal(out.ok, false);
  t.notOk('items' in out, 'no items while a cell is bad');
  t.same(out.ok ? [] : out.problems.map(describeProblem), [
    'row 3, column A (label): label is required',
    'row 3, column B (length): length must be a number, got "abc"',
    'row 3, column E (weight): weight must be more than 0 and at most 1000000000, got 0',
    'row 3, column F (quantity): quantity must be a whole number, got 2.5',
    'row 3, column G (shape): shape must be one of box, cylinder, pallet, bag, drum, got "sphere"',
    'row 3, column H (stackable): stackable must be yes or no (true/false, 1/0), got "maybe"',
    'row 3, column I (colour): color must be a colour #rrggbb, got "red"',
    'row 3, column J (priority): priority must be at least 0 and at most 1000000, got -1',
    'row 4, column B (length): length must be at least 0.1 and at most 100000, got 100001',
    'row 5, column F (quantity): quantity is required',
  ]);
});

t.test('header problems: a required column missing, a column named twice, no item rows', async (t) => {
  const missing = itemsFromCsv('label,length,width,height,qty\nA,1,1,1,1\n');
  t.same(missing.ok ? [] : missing.problems.map((p) => [p.row, p.message]), [
    [1, 'the header row has no weight column (required: label, length, width, height, weight, quantity)'],
  ]);
  const twice = itemsFromCsv('label,length,width,height,weight,quantity,Qty\nA,1,1,1,1,1,1\n');
  t.same(twice.ok ? [] : twice.problems.map(describeProblem), [
    'row 1, column G (Qty): names the column quantity again (first in column F)',
  ]);
  const empty = itemsFromCsv('label,length,width,height,weight,quantity\n\n');
  t.same(empty.ok ? [] : empty.problems.map((p) => p.message), ['the file has no item rows below the header row']);
  t.same(itemsFromRows([]).ok, false);
});

t.test('.xlsx: typed number and boolean cells, text cells read like CSV, the first sheet', async (t) => {
  const file = xlsxOf([
    ['Label', 'Length (cm)', 'Width', 'Height', 'Weight (kg)', 'Quantity', 'Stackable', 'Hazardous'],
    ['Box A', 120, '80,5', 100, 12.5, 3, true, 'no'],
    [null, null, null, null, null, null, null, null],
    ['Box B', 60, 40, 40, 7, 1, false, null],
  ]);
  t.same(await itemsFromXlsx(bytesOf(file)), {
    ok: true,
    rows: [2, 4],
    ignored: [],
    items: [
      {
        label: 'Box A',
        length: 120,
        width: 80.5,
        height: 100,
        weight: 12.5,
        quantity: 3,
        stackable: true,
        hazardous: false,
      },
      { label: 'Box B', length: 60, width: 40, height: 40, weight: 7, quantity: 1, stackable: false },
    ],
  });
  const bad = await itemsFromXlsx(
    bytesOf(
      xlsxOf([
        ['label', 'length', 'width', 'height', 'weight', 'quantity'],
        ['A', 'wide', 1, 1, 1, 1.5],
      ]),
    ),
  );
  t.same(bad.ok ? [] : bad.problems.map(describeProblem), [
    'row 2, column B (length): length must be a number, got "wide"',
    'row 2, column F (quantity): quantity must be a whole number, got 1.5',
  ]);
  const broken = await itemsFromXlsx(bytesOf(new TextEncoder().encode('not a zip')));
  t.equal(broken.ok, false);
  t.match(broken.ok ? '' : broken.problems[0]!.message, /^not a readable \.xlsx file/);
});

t.test('a file is read by its name', async (t) => {
  const text = 'label,length,width,height,weight,quantity\nA,1,2,3,4,5\n';
  const asFile = (name: string, body: string | Uint8Array) => ({
    name,
    text: async () => (typeof body === 'string' ? body : ''),
    arrayBuffer: async () => (typeof body === 'string' ? bytesOf(new TextEncoder().encode(body)) : bytesOf(body)),
  });
  t.same(await itemsFromFile(asFile('items.CSV', text)), {
    ok: true,
    rows: [2],
    ignored: [],
    items: [{ label: 'A', length: 1, width: 2, height: 3, weight: 4, quantity: 5 }],
  });
  const x = await itemsFromFile(
    asFile(
      'items.xlsx',
      xlsxOf([
        ['label', 'length', 'width', 'height', 'weight', 'quantity'],
        ['A', 1, 2, 3, 4, 5],
      ]),
    ),
  );
  t.same(x.ok && x.items, [{ label: 'A', length: 1, width: 2, height: 3, weight: 4, quantity: 5 }]);
  const xls = await itemsFromFile(asFile('old.xls', ''));
  t.match(xls.ok ? '' : xls.problems[0]!.message, /choose a \.csv or \.xlsx file/);
});

// Random items in the layout: text without surrounding spaces, numbers inside the bounds.
const text = (max: number) =>
  fc
    .string({ minLength: 1, maxLength: max, unit: 'grapheme' })
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
const cm = fc.double({ min: 0.1, max: 100_000, noNaN: true });
const item: fc.Arbitrary<PackItem> = fc.record(
  {
    label: text(40),
    length: cm,
    width: cm,
    height: cm,
    weight: fc.double({ min: 0.001, max: 1e9, noNaN: true }),
    quantity: fc.integer({ min: 1, max: 10_000 }),
    id: text(20),
    shape: fc.constantFrom('box' as const, 'pallet' as const, 'bag' as const),
    stackable: fc.boolean(),
    rotation: fc.constantFrom('all' as const, 'upright' as const, 'fixed' as const),
    max_stack_weight: fc.double({ min: 0, max: 1e6, noNaN: true }),
    group: text(20),
    color: fc.stringMatching(/^#[0-9a-f]{6}$/),
    hazardous: fc.boolean(),
    priority: fc.integer({ min: 0, max: 1_000_000 }),
    nesting_height: fc.double({ min: 0, max: 1000, noNaN: true }),
  },
  { requiredKeys: ['label', 'length', 'width', 'height', 'weight', 'quantity'] },
);

t.test('property: a CSV written from random items imports back to the same items', async (t) => {
  fc.assert(
    fc.property(fc.array(item, { minLength: 1, maxLength: 8 }), (items) => {
      const back = itemsFromCsv(csvFromItems(items));
      if (!back.ok) throw new Error(back.problems.map(describeProblem).join('; '));
      // fast-check records have no prototype; the import makes plain objects.
      return isDeepStrictEqual(
        back.items,
        items.map((i) => ({ ...i })),
      );
    }),
    { numRuns: 200 },
  );
  t.pass('200 random item lists round-tripped');
});

t.test('property: no text makes the CSV reader throw; the outcome is items or problems', async (t) => {
  fc.assert(
    fc.property(fc.string({ maxLength: 300 }), (s) => {
      const out = itemsFromCsv(`label,length,width,height,weight,quantity\n${s}`);
      return out.ok ? out.items.length > 0 : out.problems.length > 0;
    }),
    { numRuns: 300 },
  );
  t.pass('300 random texts');
});
