/**
 * Plan editing: the viewer checks edits in the browser with the same verifier code the server
 * runs (solver/edit bundled by Vite). This test bundles solver/edit the way the viewer's build
 * does (Vite, browser target), loads it into headless chromium, and checks that the browser and
 * node give the same answer — validity, every problem's rule, message and units, and the rebuilt
 * plan — on 1,000 random edits of solver plans of the examples.
 */
import t from 'tap';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { build } from 'vite';
import type { Orientation, PackModel, Plan } from '../../domain/pack/plan.js';
import { search } from '../../solver/search/search.js';
import { checkLayout, type PlanCheck } from '../../solver/edit/plan-check.js';
import { layoutOf } from '../../solver/edit/layout.js';
import { applyOperations, type EditOperation } from '../../solver/edit/operations.js';
import { modelOf } from '../helpers/example-model.js';
import { launchChromium } from '../helpers/chromium.js';

const EXAMPLES = ['eur-pallets-13-6m-trailer', 'multi-stop-box-truck', 'chemicals-double-deck-trailer'];
const EDITS = 1000;

/** The example's model and a short deterministic search's plan. */
function solvedExample(name: string): { model: PackModel; plan: Plan } {
  const body: unknown = JSON.parse(readFileSync(`examples/${name}.json`, 'utf8'));
  const { model } = modelOf(body);
  const plan = search({ model, worker: 0, stride: 1, deadline: Date.now() + 60_000, work: 3000 }).plans[0]?.plan;
  if (!plan) throw new Error(`no plan for ${name}`);
  return { model, plan };
}

/** Random edits of `plan`: moves snapped onto neighbours' faces or anywhere, removals, swaps, places. */
function editsOf(model: PackModel, plan: Plan): fc.Arbitrary<EditOperation[]> {
  const units = plan.vehicles.flatMap((v, vehicle) => v.placements.map((p) => ({ p, vehicle })));
  const unit = fc.constantFrom(...units);
  const orientationOf = (itemId: string): fc.Arbitrary<Orientation> =>
    fc.constantFrom(...model.items.find((it) => it.id === itemId)!.orientations);
  const move = fc
    .tuple(unit, unit, fc.integer({ min: 0, max: 3 }), fc.double({ min: -50, max: 1500, noNaN: true }))
    .chain(([a, b, face, free]) =>
      orientationOf(a.p.item_id).map((orientation): EditOperation => {
        // Against b's faces (a crew's "next to" and "on top of"), or somewhere at random.
        const at =
          face === 0
            ? { x: b.p.x + b.p.length, y: b.p.y, z: b.p.z }
            : face === 1
              ? { x: b.p.x, y: b.p.y + b.p.height, z: b.p.z }
              : face === 2
                ? { x: b.p.x, y: b.p.y, z: b.p.z + b.p.width }
                : { x: free, y: 0, z: free / 6 };
        return { op: 'move', item_id: a.p.item_id, instance: a.p.instance, vehicle: b.vehicle, ...at, orientation };
      }),
    );
  // A unit put back where it is: the edit a drag that ends where it started makes.
  const stay = unit.map((a): EditOperation => ({
    op: 'move',
    item_id: a.p.item_id,
    instance: a.p.instance,
    vehicle: a.vehicle,
    x: a.p.x,
    y: a.p.y,
    z: a.p.z,
    orientation: a.p.orientation,
  }));
  const remove = unit.map((a): EditOperation => ({ op: 'remove', item_id: a.p.item_id, instance: a.p.instance }));
  const swap = fc.tuple(unit, unit).map(([a, b]): EditOperation => ({
    op: 'swap',
    a: { item_id: a.p.item_id, instance: a.p.instance },
    b: { item_id: b.p.item_id, instance: b.p.instance },
  }));
  return fc.array(
    fc.oneof(
      { weight: 4, arbitrary: move },
      { weight: 4, arbitrary: stay },
      { weight: 1, arbitrary: remove },
      { weight: 1, arbitrary: swap },
    ),
    {
      minLength: 1,
      maxLength: 3,
    },
  );
}

t.test('the browser and node verify 1,000 random edits alike', async (t) => {
  const bundle = await build({
    configFile: false,
    logLevel: 'silent',
    build: {
      write: false,
      minify: true,
      target: 'es2022',
      lib: { entry: 'solver/edit/browser-check.ts', formats: ['iife'], name: 'PlanEdit', fileName: 'plan-edit' },
    },
  });
  const output = (Array.isArray(bundle) ? bundle[0]! : bundle) as { output: { code?: string }[] };
  const code = output.output[0]!.code!;
  t.ok(code.length > 1000, `bundled ${code.length} bytes`);

  const jobs = EXAMPLES.map(solvedExample);
  const cases = jobs.flatMap(({ model, plan }, job) =>
    fc
      .sample(editsOf(model, plan), { numRuns: Math.ceil(EDITS / jobs.length), seed: 7 + job })
      .map((ops) => ({ job, layout: applyOperations(model, layoutOf(plan), ops).layout })),
  );
  const inNode = cases.map(({ job, layout }) => checkLayout(jobs[job]!.model, layout));

  const browser = await launchChromium();
  t.teardown(() => browser.close());
  const page = await browser.newPage();
  await page.setContent('<!doctype html><title>verifier</title>');
  await page.addScriptTag({ content: code });
  const inBrowser = await page.evaluate(
    ({ models, cases }) => {
      const edit = (globalThis as unknown as { PlanEdit: { checkLayout: (m: unknown, l: unknown) => unknown } })
        .PlanEdit;
      return cases.map(({ job, layout }) => edit.checkLayout(models[job], layout));
    },
    { models: jobs.map((j) => j.model), cases: cases },
  );

  t.equal(inBrowser.length, cases.length);
  const differing = inNode.filter((check, i) => JSON.stringify(check) !== JSON.stringify(inBrowser[i] as PlanCheck));
  t.equal(differing.length, 0, 'every answer is the same, problems and rebuilt plan');
  const refused = inNode.filter((c) => !c.valid).length;
  const rules = new Set(inNode.flatMap((c) => c.problems.map((p) => p.rule)));
  t.ok(
    refused > 100 && refused < cases.length - 100,
    `${refused} of ${cases.length} edits refused: both outcomes are covered`,
  );
  t.ok(rules.has('overlap') && rules.has('support') && rules.has('bounds'), `rules seen: ${[...rules].join(', ')}`);
});
