/**
 * Units in item-file headers (webapp/src/import/header-units.ts, item-columns.ts readHeader,
 * units/unit-names.ts): a header's unit in brackets or as a trailing word, in any case and the
 * usual spellings, converted to the API's cm and kg; no unit means the organization's display
 * units; an unknown or ambiguous unit, or one of the other quantity, is a header problem and
 * nothing is imported. Properties: a value written in a unit imports as the value converted
 * (within 1e-9 relative), and an unknown unit always refuses the file.
 */
import t from 'tap';
import fc from 'fast-check';
import { csvFromItems, itemsFromCsv } from '../../webapp/src/import/csv.js';
import { describeConversion } from '../../webapp/src/import/header-units.js';
import { readHeader } from '../../webapp/src/import/item-columns.js';
import { describeProblem, itemsFromRows } from '../../webapp/src/import/item-rows.js';
import { itemsFromXlsx } from '../../webapp/src/import/xlsx.js';
import { UNITS_OF, isUnitName, toApiUnit, unitNamed } from '../../webapp/src/units/unit-names.js';
import { xlsxOf } from '../helpers/xlsx-file.js';

const bytesOf = (u: Uint8Array): ArrayBuffer =>
  u.buffer.slice(u.byteOffset, u.byteOffset + u.byteLength) as ArrayBuffer;
const close = (found: number, wanted: number): boolean => Math.abs(found - wanted) <= 1e-9 * Math.abs(wanted);

t.test('a header names its column and its unit', async (t) => {
  const read = (h: string) => {
    const r = readHeader(h);
    return [r.column?.field, r.unit];
  };
  t.same(read('Length (in)'), ['length', 'in']);
  t.same(read('Length [mm]'), ['length', 'mm']);
  t.same(read('Length mm'), ['length', 'mm'], 'a trailing word');
  t.same(read('weight_lbs'), ['weight', 'lbs'], 'after an underscore');
  t.same(read('Unit Weight [kg]'), ['weight', 'kg']);
  t.same(read('Max stack weight (lb)'), ['max_stack_weight', 'lb']);
  t.same(read('Height inches.'), ['height', 'inches']);
  t.same(read('Length furlongs'), ['length', 'furlongs'], 'any trailing word on a measured column is its unit');
  t.same(read('Length'), ['length', undefined]);
  t.same(read('Weight per unit'), ['weight', undefined], 'a variant ending in a word is still the variant');
  t.same(read('Qty (pcs)'), ['quantity', 'pcs']);
  t.same(read('Notes (internal)'), [undefined, undefined]);
  t.same(read('Label text'), [undefined, undefined], 'no trailing unit on a column without a quantity');
});

t.test('unit names: symbols and spellings in any case, one quantity each', async (t) => {
  const cases: [string, string, number][] = [
    ['in', 'length', 2.54],
    ['Inch', 'length', 2.54],
    ['INCHES', 'length', 2.54],
    ['ft', 'length', 30.48],
    ['feet', 'length', 30.48],
    ['mm', 'length', 0.1],
    ['Millimetres', 'length', 0.1],
    ['cm', 'length', 1],
    ['m', 'length', 100],
    ['meters', 'length', 100],
    ['kg', 'weight', 1],
    ['KGS', 'weight', 1],
    ['lb', 'weight', 0.45359237],
    ['lbs.', 'weight', 0.45359237],
    ['Pounds', 'weight', 0.45359237],
    ['t', 'weight', 1000],
    ['tonnes', 'weight', 1000],
    ['g', 'weight', 0.001],
    ['oz', 'weight', 0.45359237 / 16],
  ];
  for (const [name, quantity, factor] of cases) t.match(unitNamed(name), { quantity, factor }, name);
  t.equal(unitNamed('ton'), undefined, 'ton is ambiguous');
  t.ok(isUnitName('ton'));
  t.equal(unitNamed('furlong'), undefined);
  t.equal(toApiUnit(48, unitNamed('in')!), 121.92, 'floating-point noise dropped');
  t.equal(toApiUnit(1000, unitNamed('lb')!), 453.59237);
});

t.test('a file in inches and pounds imports in cm and kg and says what it converted', async (t) => {
  const out = itemsFromCsv(
    'Label,Length (in),Width (in),Height (in),Weight (lb),Qty,Max stack weight [lbs],Radius,Shape\nPallet,48,40,60,550,2,1000,,\nRoll,,,36,22.5,1,,6,cylinder\n',
  );
  t.same(out.ok && out.items, [
    {
      label: 'Pallet',
      length: 121.92,
      width: 101.6,
      height: 152.4,
      weight: 249.4758035,
      quantity: 2,
      max_stack_weight: 453.59237,
    },
    { label: 'Roll', height: 91.44, weight: 10.205828325, quantity: 1, radius: 6, shape: 'cylinder' },
  ]);
  t.same(
    (out.conversions ?? []).map(describeConversion),
    [
      'Length (in): inches → cm (× 2.54)',
      'Width (in): inches → cm (× 2.54)',
      'Height (in): inches → cm (× 2.54)',
      'Weight (lb): pounds → kg (× 0.45359237)',
      'Max stack weight [lbs]: pounds → kg (× 0.45359237)',
    ],
    'the radius has no unit: cm, the metric display units',
  );
});

t.test('millimetres, metres, feet and tonnes; cm and kg convert nothing', async (t) => {
  const out = itemsFromCsv('label;length mm;width [M];height_ft;weight t;quantity\nCrate;1200;0,8;5;1,5;1\n');
  t.same(out.ok && out.items, [{ label: 'Crate', length: 120, width: 80, height: 152.4, weight: 1500, quantity: 1 }]);
  const plain = itemsFromCsv('label,length (cm),width,height,weight [kg],quantity\nA,1,2,3,4,5\n');
  t.same(
    plain,
    {
      ok: true,
      ignored: [],
      items: [{ label: 'A', length: 1, width: 2, height: 3, weight: 4, quantity: 5 }],
      rows: [2],
    },
    'no conversions listed',
  );
});

t.test("headers without a unit are read in the organization's display units", async (t) => {
  const csv = 'label,length,width,height (cm),weight,quantity\nA,10,20,30,100,1\n';
  const metric = itemsFromCsv(csv, { displayUnits: 'metric' });
  t.same(metric.ok && metric.items, [{ label: 'A', length: 10, width: 20, height: 30, weight: 100, quantity: 1 }]);
  const imperial = itemsFromCsv(csv, { displayUnits: 'imperial' });
  t.same(
    imperial.ok && imperial.items,
    [{ label: 'A', length: 25.4, width: 50.8, height: 30, weight: 45.359237, quantity: 1 }],
    'the height names cm',
  );
  t.same(
    (imperial.conversions ?? []).map((c) => [c.field, c.from.symbol, c.source]),
    [
      ['length', 'in', 'display units'],
      ['width', 'in', 'display units'],
      ['weight', 'lb', 'display units'],
    ],
  );
  t.match(
    describeConversion(imperial.conversions![0]!),
    /^length: inches → cm \(× 2\.54\), no unit in the header: your organization's display units$/,
  );
  t.same(
    csvFromItems([{ label: 'A', length: 10, width: 20, height: 30, weight: 100, quantity: 1 }]).split('\n')[0],
    'label,length (cm),width (cm),height (cm),weight (kg),quantity',
    'written files name their units',
  );
  const back = itemsFromCsv(
    csvFromItems([{ label: 'A', length: 10, width: 20, height: 30, weight: 100, quantity: 1 }]),
    { displayUnits: 'imperial' },
  );
  t.same(
    back.ok && back.items,
    [{ label: 'A', length: 10, width: 20, height: 30, weight: 100, quantity: 1 }],
    'and read back the same in an imperial organization',
  );
});

t.test('unknown, ambiguous and mismatched units are header problems; nothing is imported', async (t) => {
  const out = itemsFromCsv(
    'label,length (furlongs),width (kg),height,weight (ton),quantity (lb),priority (kg),colour (hex)\nA,1,2,3,4,5,1,#000000\n',
  );
  t.equal(out.ok, false);
  t.notOk('items' in out);
  t.same(out.ok ? [] : out.problems.map(describeProblem), [
    'row 1, column B (length (furlongs)): unknown unit "furlongs": length takes mm, cm, m, in or ft',
    'row 1, column C (width (kg)): kg is a unit of weight: width takes mm, cm, m, in or ft',
    'row 1, column E (weight (ton)): the unit "ton" is ambiguous (a ton is 1000 kg (t), 907 kg (US) or 1016 kg (UK)): weight takes g, kg, t, lb or oz',
    'row 1, column F (quantity (lb)): quantity takes no unit of length or weight, got "lb"',
    'row 1, column G (priority (kg)): priority takes no unit of length or weight, got "kg"',
  ]);
  const trailing = itemsFromCsv('label,length,width,height,weight stones,quantity\nA,1,2,3,4,5\n');
  t.same(trailing.ok ? [] : trailing.problems.map((p) => p.message), [
    'unknown unit "stones": weight takes g, kg, t, lb or oz',
  ]);
});

t.test('bounds judge the converted value and the message shows both units', async (t) => {
  const out = itemsFromCsv('label,length (mm),width,height,weight (g),quantity\nA,0.5,1,1,0,1\nB,1000000001,1,1,1,1\n');
  t.same(out.ok ? [] : out.problems.map(describeProblem), [
    'row 2, column B (length (mm)): length must be at least 0.1 cm and at most 100000 cm, got 0.5 mm = 0.05 cm',
    'row 2, column E (weight (g)): weight must be more than 0 kg and at most 1000000000 kg, got 0 g = 0 kg',
    'row 3, column B (length (mm)): length must be at least 0.1 cm and at most 100000 cm, got 1000000001 mm = 100000000.1 cm',
  ]);
});

t.test('.xlsx headers name units too', async (t) => {
  const out = await itemsFromXlsx(
    bytesOf(
      xlsxOf([
        ['Label', 'Length (in)', 'Width (in)', 'Height (in)', 'Weight (lb)', 'Quantity'],
        ['Crate', 48, 40, 36, 100, 2],
      ]),
    ),
  );
  t.same(out.ok && out.items, [
    { label: 'Crate', length: 121.92, width: 101.6, height: 91.44, weight: 45.359237, quantity: 2 },
  ]);
  const imperial = await itemsFromXlsx(
    bytesOf(
      xlsxOf([
        ['Label', 'Length', 'Width', 'Height', 'Weight', 'Quantity'],
        ['Crate', 48, 40, 36, 100, 2],
      ]),
    ),
    { displayUnits: 'imperial' },
  );
  t.same(imperial.ok && imperial.items, [
    { label: 'Crate', length: 121.92, width: 101.6, height: 91.44, weight: 45.359237, quantity: 2 },
  ]);
});

// Properties ----------------------------------------------------------------------------------

const lengthUnit = fc.constantFrom(...UNITS_OF.length);
const weightUnit = fc.constantFrom(...UNITS_OF.weight);
const spelled = (symbol: string) => fc.constantFrom(symbol, symbol.toUpperCase());
const style = fc.constantFrom('paren', 'bracket', 'word');
const headerOf = (name: string, unit: string, how: string): string =>
  how === 'paren' ? `${name} (${unit})` : how === 'bracket' ? `${name} [${unit}]` : `${name} ${unit}`;
const positive = fc.double({ min: 1e-3, max: 1e3, noNaN: true, noDefaultInfinity: true });

t.test('property: a value written in unit U imports as the value converted to cm or kg', async (t) => {
  fc.assert(
    fc.property(
      lengthUnit.chain((u) => fc.record({ u: fc.constant(u), name: spelled(u.symbol) })),
      weightUnit.chain((u) => fc.record({ u: fc.constant(u), name: spelled(u.symbol) })),
      style,
      fc.array(fc.tuple(positive, positive, positive, positive), { minLength: 1, maxLength: 5 }),
      fc.constantFrom('metric' as const, 'imperial' as const),
      (len, wt, how, rows, displayUnits) => {
        // Values whose cm/kg fall outside the service's bounds are refused, not converted: keep inside.
        const inBounds = rows.filter(
          ([l, w, h, kg]) =>
            [l, w, h].every((v) => v * len.u.factor >= 0.1 && v * len.u.factor <= 100_000) &&
            kg * wt.u.factor > 0 &&
            kg * wt.u.factor <= 1e9,
        );
        if (inBounds.length === 0) return;
        const header = [
          'label',
          headerOf('length', len.name, how),
          headerOf('Width', len.name, how),
          headerOf('HEIGHT', len.name, how),
          headerOf('weight', wt.name, how),
          'quantity',
        ];
        const out = itemsFromRows([header, ...inBounds.map(([l, w, h, kg], i) => [`item ${i}`, l, w, h, kg, 1])], {
          displayUnits,
        });
        if (!out.ok) throw new Error(out.problems.map(describeProblem).join('; '));
        out.items.forEach((item, i) => {
          const [l, w, h, kg] = inBounds[i]!;
          const want = [l * len.u.factor, w * len.u.factor, h * len.u.factor, kg * wt.u.factor];
          const found = [item.length!, item.width!, item.height!, item.weight!];
          if (!found.every((f, j) => close(f, want[j]!)))
            throw new Error(`${JSON.stringify(found)} is not ${JSON.stringify(want)}`);
        });
      },
    ),
    { numRuns: 300 },
  );
  t.pass('300 files');
});

t.test('property: a value typed as text in unit U imports as the value converted', async (t) => {
  fc.assert(
    fc.property(lengthUnit, fc.double({ min: 1, max: 100, noNaN: true }), (u, v) => {
      const text = String(v);
      const out = itemsFromCsv(`label,length (${u.symbol}),width,height,weight,quantity\nA,${text},10,10,1,1\n`);
      if (!out.ok) throw new Error(out.problems.map(describeProblem).join('; '));
      return close(out.items[0]!.length!, Number(text) * u.factor);
    }),
    { numRuns: 200 },
  );
  t.pass('200 cells');
});

t.test('property: an unknown unit always refuses the file, naming the header', async (t) => {
  const word = fc.stringMatching(/^[a-z]{1,10}$/).filter((w) => !isUnitName(w));
  fc.assert(
    fc.property(
      word,
      style,
      fc.constantFrom('length', 'width', 'height', 'weight', 'radius', 'max_stack_weight', 'nesting_height'),
      (w, how, column) => {
        const header = headerOf(column, w, how);
        const base = ['label', 'length', 'width', 'height', 'weight', 'quantity'];
        const headers = base.includes(column) ? base.map((h) => (h === column ? header : h)) : [...base, header];
        const out = itemsFromRows([headers, headers.map((_, i) => (i === 0 ? 'A' : 1))]);
        return (
          !out.ok &&
          out.problems.some((p) => p.row === 1 && p.header === header && p.message.startsWith(`unknown unit "${w}"`))
        );
      },
    ),
    { numRuns: 300 },
  );
  t.pass('300 headers');
});
