/**
 * The viewer's colourings (viewer/src/colour-modes.ts): by item colour the PDF's colours exactly
 * (display/item-colour.ts with the same ids), by item one colour per item whatever was
 * given, by group the group's colour; every legend lists every item.
 */
import t from 'tap';
import type { ViewerItem, ViewerPlan } from '../../api/http/plan-viewer/viewer-plan.js';
import { ITEM_PALETTE, assignItemColours, itemColour } from '../../display/item-colour.js';
import { NO_GROUP_COLOUR, colouring } from '../../viewer/src/colour-modes.js';

const item = (id: string, color: string | null, group: string | null = null): ViewerItem => ({
  id,
  label: `Label ${id}`,
  shape: 'box',
  length: 10,
  width: 10,
  height: 10,
  weight: 1,
  quantity: 1,
  group,
  color,
  hazardous: false,
});
const placement = (item_id: string, instance: number) => ({
  item_id,
  instance,
  label: item_id,
  x: 0,
  y: 0,
  z: 0,
  length: 10,
  width: 10,
  height: 10,
  rotated: false,
  orientation: 'lwh' as const,
  step: instance,
  weight: 1,
});

function planOf(items: ViewerItem[], placed: string[], groups: ViewerPlan['groups'] = []): ViewerPlan {
  return {
    job_id: 'job_x',
    revision: 0,
    model: null,
    reference: null,
    created_at: '',
    expires_at: '',
    warnings: [],
    unplaced: [],
    items,
    groups,
    vehicles: [
      {
        index: 0,
        vehicle_id: 'v',
        copy: 1,
        auto_added: false,
        name: 'V',
        type: 'truck',
        length: 100,
        width: 100,
        height: 100,
        max_weight: 100,
        items_placed: placed.length,
        total_weight: placed.length,
        volume_utilization: 0,
        weight_utilization: 0,
        center_of_gravity: { x: 0, y: 0, z: 0 },
        placements: placed.map((id, i) => placement(id, i + 1)),
        blocked_areas: [],
        aux_deck: null,
      },
    ],
  };
}

t.test("item colour: the PDF's colours, given ones first, every item in the legend", async (t) => {
  const items = [item('a', '#112233'), item('b', null), item('c', null), item('unplaced', null)];
  const plan = planOf(items, ['a', 'b', 'c', 'b']);
  const c = colouring(plan, 'color');
  const pdf = assignItemColours(['a', 'b', 'c', 'b'], { a: '#112233' });
  for (const id of ['a', 'b', 'c']) t.equal(c.colourOf(id), pdf.get(id), `${id} as in the PDF`);
  t.equal(c.colourOf('a'), '#112233');
  t.equal(
    c.colourOf('unplaced'),
    itemColour('unplaced', { a: '#112233' }),
    "an item with no unit placed: the PDF's single-item colour",
  );
  t.same(
    c.legend.map((e) => [e.key, e.label, e.itemIds]),
    items.map((it) => [it.id, it.label, [it.id]]),
    'every item, in request order',
  );
});

t.test('item: distinct colours even where the request gave two items one colour', async (t) => {
  const items = [item('a', '#ff0000'), item('b', '#ff0000'), item('c', null)];
  const c = colouring(planOf(items, ['a', 'b', 'c']), 'item');
  t.equal(new Set(items.map((it) => c.colourOf(it.id))).size, 3);
  const many = Array.from({ length: 40 }, (_, i) => item(`sku-${String(i).padStart(2, '0')}`, null));
  const m = colouring(
    planOf(
      many,
      many.map((it) => it.id),
    ),
    'item',
  );
  t.equal(
    new Set(many.map((it) => m.colourOf(it.id))).size,
    40,
    "40 items, 40 colours (more than the palette's " + ITEM_PALETTE.length + ')',
  );
  for (const it of many) t.match(m.colourOf(it.id), /^#[0-9a-f]{6}$/);
  t.equal(m.legend.length, 40);
});

t.test("group: the group's colour, a palette colour when none was given, grey without a group", async (t) => {
  const items = [
    item('a', '#111111', 'North'),
    item('b', null, 'North'),
    item('c', null, 'South'),
    item('d', '#222222'),
  ];
  const groups = [
    { name: 'North', order: 1, color: '#00aa00' },
    { name: 'South', order: 2, color: null },
  ];
  const c = colouring(planOf(items, ['a', 'b', 'c', 'd'], groups), 'group');
  t.equal(c.colourOf('a'), '#00aa00');
  t.equal(c.colourOf('b'), '#00aa00');
  t.equal(c.colourOf('c'), assignItemColours(['North', 'South'], { North: '#00aa00' }).get('South'));
  t.not(c.colourOf('c'), '#00aa00');
  t.equal(c.colourOf('d'), NO_GROUP_COLOUR);
  t.same(
    c.legend.map((e) => [e.label, e.itemIds]),
    [
      ['North', ['a', 'b']],
      ['South', ['c']],
      ['No group', ['d']],
    ],
  );
});
