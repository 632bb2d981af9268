/**
 * The verifier's group_routing rule on hand-made plans: u0 and u1 stand side by side on the floor
 * (x 0–100 and 100–200), u2 rests on u0; steps u0, u1, u2 unless a case says otherwise. Each case gives the three units groups
 * and checks that exactly the broken promise is reported.
 */
import t from 'tap';
import type { GroupRouting, PackModel, Plan } from '../../../domain/pack/plan.js';
import { verifyPlan } from '../../../solver/verify/verify.js';
import { gridPlan } from './plan-fixture.js';

function plan(
  mode: GroupRouting,
  groups: [string, number][],
  steps: number[] = [1, 2, 3],
): { model: PackModel; plan: Plan } {
  const p = gridPlan({ length: 300, width: 100, height: 100 }, [
    { x: 0, y: 0, z: 0, length: 100, width: 100, height: 40, weight: 10 },
    { x: 100, y: 0, z: 0, length: 100, width: 100, height: 40, weight: 10 },
    { x: 0, y: 40, z: 0, length: 100, width: 100, height: 40, weight: 10 },
  ]);
  p.model.groupRouting = mode;
  groups.forEach(([group, order], i) => Object.assign(p.model.items[i]!, { group, groupOrder: order }));
  p.plan.vehicles[0]!.placements.forEach((q, i) => {
    q.step = steps[i]!;
  });
  return p;
}
const messages = (p: { model: PackModel; plan: Plan }) =>
  verifyPlan(p.model, p.plan).map((v) => `${v.rule}: ${v.message}`);

t.test('routing: a later group may rest on an earlier one, never under it', async (t) => {
  t.same(
    messages(
      plan('routing', [
        ['A', 1],
        ['B', 2],
        ['B', 2],
      ]),
    ),
    [],
  );
  t.same(
    messages(
      plan('routing', [
        ['B', 2],
        ['B', 2],
        ['A', 1],
      ]),
    ),
    [
      'group_routing: u2#1 (group "A") rests on u0#1 of a later group (group "B") in vehicle 0; with group_routing "routing" a later group never goes under an earlier one.',
      'group_routing: u2#1 (group "A") is loaded at step 3, after u1#1 of a later group (group "B", step 2); with group_routing "routing" groups load in order.',
    ],
  );
  t.same(
    messages(
      plan('none', [
        ['B', 2],
        ['B', 2],
        ['A', 1],
      ]),
    ),
    [],
    'without a routing groups only suggest an order',
  );
});

t.test('no_stack: no group rests on another', async (t) => {
  t.same(
    messages(
      plan(
        'no_stack',
        [
          ['A', 1],
          ['B', 2],
          ['A', 1],
        ],
        [1, 3, 2],
      ),
    ),
    [],
  );
  t.match(
    messages(
      plan('no_stack', [
        ['A', 1],
        ['A', 1],
        ['B', 2],
      ]),
    ),
    [/u2#1 \(group "B"\) rests on u0#1 \(group "A"\).*never rest on one another/],
  );
});

t.test('wall: each group its own section of the length, in order', async (t) => {
  t.same(
    messages(
      plan(
        'wall',
        [
          ['A', 1],
          ['B', 2],
          ['A', 1],
        ],
        [1, 3, 2],
      ),
    ),
    [],
  );
  t.same(
    messages(
      plan('wall', [
        ['B', 2],
        ['A', 1],
        ['A', 1],
      ]),
    ),
    [
      'group_routing: In vehicle 0 group "B" starts at x = 0 cm, inside the section of an earlier group (group "A" reaches x = 200 cm); with group_routing "wall" each group has its own section.',
      'group_routing: u1#1 (group "A") is loaded at step 2, after u0#1 of a later group (group "B", step 1); with group_routing "wall" groups load in order.',
    ],
  );
});

t.test('groups of one order are told apart by name; items without a group come last', async (t) => {
  t.same(
    messages(
      plan('routing', [
        ['A', 1],
        ['B', 1],
        ['B', 1],
      ]),
    ),
    [],
    'A before B at the same order',
  );
  const ungrouped = plan('routing', [
    ['A', 1],
    ['A', 1],
    ['A', 1],
  ]);
  Object.assign(ungrouped.model.items[0]!, { group: null, groupOrder: Number.MAX_SAFE_INTEGER });
  t.match(messages(ungrouped), [/u2#1 \(group "A"\) rests on u0#1 of a later group \(no group\)/, /loaded at step/]);
});
