/**
 * The verifier's problems in a planner's words (viewer/src/edit/problem-words.ts), on real checks
 * of the verifier's small plan (test/solver/verify/plan-fixture.ts: truck 300 × 200 × 200; items
 * A "Carton A", B "Crate B" not stackable, C) and on the service's own 422 details
 * (application/plan-revisions.ts editProblems): vehicles 1-based in the viewer's numbering,
 * units by label and instance, figures rounded in the display units, no JSON path.
 */
import t from 'tap';
import { editProblems } from '../../application/plan-revisions.js';
import { layoutOf } from '../../solver/edit/layout.js';
import type { EditOperation } from '../../solver/edit/operations.js';
import { PlanEditor } from '../../viewer/src/edit/plan-editor.js';
import {
  deedWords,
  detailWords,
  planNames,
  problemText,
  problemWords,
  ruleWords,
  type NamedPlan,
} from '../../viewer/src/edit/problem-words.js';
import { smallModel, smallPlan } from '../solver/verify/plan-fixture.js';

const A1 = { item_id: 'A', instance: 1 };
const A2 = { item_id: 'A', instance: 2 };
const A3 = { item_id: 'A', instance: 3 };
const B1 = { item_id: 'B', instance: 1 };
const B2 = { item_id: 'B', instance: 2 };
const C1 = { item_id: 'C', instance: 1 };

/** Text as read: without the isolates (FSI, PDI) around item labels. */
const plain = (text: string): string => text.replace(/[\u2068\u2069]/g, '');

const opened = (units: NamedPlan['display_units'] = 'metric'): NamedPlan => ({
  items: smallModel().items,
  vehicles: smallPlan().vehicles,
  display_units: units,
});

const box = (x: number, y: number, z: number, size = 60) => ({ x, y, z, length: size, width: size, height: size });

/** The small plan with vehicle 1 emptied and B#2 pushed through the door end of vehicle 2 (x 259.9946). */
function emptiedAndOut(): PlanEditor {
  const e = new PlanEditor(smallModel(), smallPlan());
  for (const u of [A3, A1, A2, B1]) t.equal(e.remove(u), true);
  t.equal(e.put(B2, 1, box(259.9946, 0, 0), 'lwh'), true);
  return e;
}

t.test('a vehicle the check left out: the next one still reads as the viewer numbers it', async (t) => {
  const check = emptiedAndOut().check();
  t.equal(check.plan.vehicles.length, 1, 'the emptied vehicle is not in the checked plan');
  const bounds = check.problems.filter((p) => p.rule === 'bounds');
  t.equal(bounds.length, 1, JSON.stringify(check.problems));
  t.match(bounds[0]!.message, /^B#2 in vehicle 0: x \+ length = 259\.9946 \+ 60 = 319\.9946 cm/, 'the verifier as is');
  t.equal(
    plain(problemWords(bounds[0]!, planNames(opened(), check.plan))),
    "Crate B #2 in Vehicle 2: it reaches 320 cm along the length, 20 cm beyond the vehicle's length of 300 cm. (rule bounds)",
  );
  t.equal(
    plain(problemWords(bounds[0]!, planNames(opened('imperial'), check.plan))),
    "Crate B #2 in Vehicle 2: it reaches 126 in along the length, 7.9 in beyond the vehicle's length of 118.1 in. (rule bounds)",
    'in inches for an organization that reads imperial',
  );
});

t.test('a unit on a non-stackable crate: labels, the area and the height in words', async (t) => {
  const e = new PlanEditor(smallModel(), smallPlan());
  t.equal(e.put(C1, 0, box(100, 60, 0, 10), 'lwh'), true);
  const check = e.check();
  const names = planNames(opened(), check.plan);
  t.same(
    check.problems.map((p) => plain(problemWords(p, names))),
    [
      'C #1 rests on Crate B #1 in Vehicle 1 (100 cm² of its top at a height of 60 cm), but Crate B is not stackable. (rule stacking)',
    ],
  );
});

t.test(
  'the verifier messages of many edits: no raw figure, no 0-based vehicle, no unit key, no field name',
  async (t) => {
    const edits: ((e: PlanEditor) => unknown)[] = [
      (e) => e.put(B1, 0, box(0.123456, 40, 0.5), 'lwh'), // overlap with A#3, support
      (e) => e.put(B1, 0, box(100, 40.00004, 0), 'lwh'), // floats
      (e) => e.put(A3, 0, { x: 0, y: 170.25, z: 0, length: 50, width: 100, height: 40 }, 'wlh'), // through the roof
      (e) => e.put(B2, 1, box(250, 0, 150), 'lwh'), // on the blocked corner
      (e) => e.put(C1, 0, box(100, 60, 0, 10), 'lwh'), // on a non-stackable crate
      (e) => e.remove(A1), // A#3 half supported
    ];
    for (const edit of edits) {
      const e = new PlanEditor(smallModel(), smallPlan());
      edit(e);
      const check = e.check();
      t.ok(check.problems.length > 0, 'the edit breaks a rule');
      for (const units of ['metric', 'imperial'] as const) {
        const names = planNames(opened(units), check.plan);
        for (const p of check.problems) {
          const words = plain(problemWords(p, names));
          t.notMatch(words, /\b[Vv]ehicle 0\b/, `no vehicle 0: ${words}`);
          t.notMatch(words, /\b[ABC]#\d/, 'no item#instance');
          t.notMatch(words, /\d\.\d{2,}/, 'no figure past one decimal');
          t.notMatch(words, /_/, 'no field name');
          if (units === 'imperial') t.notMatch(words, /\bcm\b|\bkg\b/, `inches and pounds: ${words}`);
        }
      }
    }
  },
);

t.test(
  'figures: lengths to 0.1 cm (mm), weights to 0.1 kg, areas whole, floor loads, never "100 %" short of it',
  async (t) => {
    const names = planNames(opened());
    const said = (m: string): string => plain(problemText(m, names));
    t.equal(
      said('Vehicle 0 carries 3000.456 kg; its max_weight is 3000 kg (0.456 kg over) and overweight is not allowed.'),
      'Vehicle 1 carries 3,000.5 kg; its maximum weight is 3,000 kg (0.5 kg over) and overweight is not allowed.',
    );
    t.equal(
      said('A#1 and B#1 in vehicle 0 overlap by 10.123456 × 20 × 30 cm (x × z × y) = 6073.4 cm³.'),
      'Carton A #1 and Crate B #1 in Vehicle 1 overlap by 10.1 × 20 × 30 cm (length × width × height).',
    );
    t.equal(
      said(
        'A#3 in vehicle 0 at y = 40 cm is supported on 2500 of 5000.004 cm² of its base (99.99%, by 1 unit); full support is required.',
      ),
      'Carton A #3 in Vehicle 1 at a height of 40 cm is supported on 2,500 of 5,000 cm² of its base (99.9%, by 1 unit); full support is required.',
    );
    t.equal(
      said('The stack on A#1 in vehicle 0 weighs 1234.5678 kg/m² (30 kg on 5000 cm²); max_stack_density_kg_m2 is 500.'),
      'The stack on Carton A #1 in Vehicle 1 weighs 1,234.6 kg/m² (30 kg on 5,000 cm²); the maximum stack density is 500 kg/m².',
    );
    t.equal(
      said('B#2 in vehicle 0 stands on blocked area 0 (x 250–300, z 150–200 cm) over 10.25 × 50 cm.'),
      'Crate B #2 in Vehicle 1 stands on blocked area 1 (250–300 cm along the length, 150–200 cm across) over 10.3 × 50 cm.',
    );
    t.equal(
      said('A#1 in vehicle 0: y + height = 160 + 40.00004 = 200.00004 cm exceeds the vehicle height 200 cm.'),
      "Carton A #1 in Vehicle 1: its top is at 200 cm, less than 1 mm above the vehicle's height of 200 cm.",
      'a tiny excess still reads as one',
    );
    t.equal(
      said('C#1 in vehicle 0: z = -2.5 cm is below 0.'),
      'C #1 in Vehicle 1: it reaches 2.5 cm past the right wall.',
    );
    t.equal(
      said('A#2 in vehicle 0 at y = 120 cm is unit 4 of its stack; max_stack_items is 3.'),
      'Carton A #2 in Vehicle 1 at a height of 120 cm is unit 4 of its stack; at most 3 units may stand in a stack.',
    );
    t.equal(
      said('Step 3 of vehicle 0 is given to 2 units (A#1, A#2); each step belongs to one unit.'),
      'Step 3 of Vehicle 1 is given to 2 units (Carton A #1, Carton A #2); each step belongs to one unit.',
      'counts and steps stay as they are',
    );
    t.equal(
      plain(problemText('Vehicle 0 carries 3000.456 kg; its max_weight is 3000 kg.', planNames(opened('imperial')))),
      'Vehicle 1 carries 6,614.9 lb; its maximum weight is 6,613.9 lb.',
    );
  },
);

t.test("a 422 of the service's own builder: each detail named by its operation's deed, no path", async (t) => {
  const operations: EditOperation[] = [
    { op: 'remove', item_id: 'A', instance: 1 },
    { op: 'place', item_id: 'C', instance: 1, vehicle: 0, x: 100, y: 60, z: 0, orientation: 'lwh' },
    { op: 'move', item_id: 'B', instance: 2, vehicle: 5, x: 0, y: 0, z: 0, orientation: 'lwh' },
  ];
  const { problems, plan } = editProblems(smallModel(), layoutOf(smallPlan()), operations);
  t.ok(
    problems.some((p) => p.path === 'operations[2]') && problems.some((p) => p.path === 'operations[1]'),
    JSON.stringify(problems),
  );
  const names = planNames(opened(), plan);
  const words = problems.map((d) => plain(detailWords(d, operations, names)));
  for (const w of words) t.notMatch(w, /operations\[|^result|\bvehicle \d|[ABC]#\d/, w);
  t.ok(
    words.includes(
      'Placing C #1 in Vehicle 1: C #1 rests on Crate B #1 in Vehicle 1 (100 cm² of its top at a height of 60 cm), but Crate B is not stackable. (rule stacking)',
    ),
    words.join('\n'),
  );
  t.ok(
    words.includes('Moving Crate B #2 in Vehicle 6: Vehicle 6 is not in the result (the plan has 2 vehicles)'),
    'an operation that could not apply: vehicles by the opened plan',
  );
  t.ok(
    words.includes(
      'Carton A #3 in Vehicle 1 at a height of 40 cm is supported on 2,500 of 5,000 cm² of its base (50%, by 1 unit); full support is required. (rule support)',
    ),
    'a problem no operation touched (path result): the problem alone',
  );
});

t.test('deeds and rules in words', async (t) => {
  const names = planNames(opened());
  t.equal(plain(deedWords({ op: 'swap', a: A1, b: B2 }, names)), 'Swapping Carton A #1 and Crate B #2');
  t.equal(plain(deedWords({ op: 'remove', ...C1 }, names)), 'Taking out C #1');
  t.equal(ruleWords('stack_weight'), 'stack weight');
  t.equal(
    plain(detailWords({ path: 'result', code: 'weight', message: 'Vehicle 1 carries 1200 kg.' }, [], names)),
    'Vehicle 2 carries 1,200 kg. (rule weight)',
    'a problem of the plan as a whole: no deed',
  );
  t.equal(
    plain(names.unit({ item_id: 'unknown', instance: 2 })),
    'unknown #2',
    'an item the plan does not list reads as its id',
  );
});
