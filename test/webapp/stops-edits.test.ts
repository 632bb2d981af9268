/**
 * The playground's stops (spec Options.group_routing, Group): the stops are the distinct groups
 * the items name, shown in delivery order (the first delivered loads last, highest `order`); a
 * reorder writes `groups` with `order`; a routing mode other than `none` lists every stop.
 */
import t from 'tap';
import fc from 'fast-check';
import {
  deliveryStopsOf,
  groupRoutingOf,
  stopsOf,
  withDeliveryOrder,
  withGroupRouting,
  withStopOrder,
} from '../../webapp/src/playground/request-edits.js';
import { moved, stopColours } from '../../webapp/src/playground/stop-order.js';
import { assignItemColours } from '../../display/item-colour.js';

const item = (group?: string) => ({
  label: 'x',
  length: 1,
  width: 1,
  height: 1,
  weight: 1,
  quantity: 1,
  ...(group ? { group } : {}),
});

t.test('stops: the groups items name, listed groups first by order, the rest by appearance', async (t) => {
  const request = {
    items: [item('B'), item(), item('A'), item('C'), item('B')],
    groups: [
      { name: 'C', order: 1, color: '#112233' },
      { name: 'Z', order: 2 },
      { name: 'A', order: 3 },
    ],
  };
  t.same(stopsOf(request), [{ name: 'C', color: '#112233' }, { name: 'A' }, { name: 'B' }]);
  t.same(
    deliveryStopsOf(request).map((s) => s.name),
    ['B', 'A', 'C'],
  );
  t.same(stopsOf({ items: [item()] }), [], 'no groups, no stops');
});

t.test('a delivery order writes groups with order, first delivered loaded last', async (t) => {
  const request = {
    items: [item('A'), item('B'), item('C')],
    groups: [{ name: 'B', color: '#abcdef' }],
    options: { seed: 1 },
  };
  const next = withDeliveryOrder(request, ['A', 'B', 'C']);
  t.same(next['groups'], [
    { name: 'C', order: 1 },
    { name: 'B', color: '#abcdef', order: 2 },
    { name: 'A', order: 3 },
  ]);
  t.same(
    deliveryStopsOf(next).map((s) => s.name),
    ['A', 'B', 'C'],
  );
  t.same(next['options'], { seed: 1 });
  t.same(next['items'], request.items);
});

t.test('routing mode: none removes it, any other lists every stop in groups', async (t) => {
  const request = { items: [item('A'), item('B')], options: { packing_mode: 'fleet_only' } };
  t.equal(groupRoutingOf(request), 'none');
  const routed = withGroupRouting(request, 'routing');
  t.equal(groupRoutingOf(routed), 'routing');
  t.same(routed['options'], { packing_mode: 'fleet_only', group_routing: 'routing' });
  t.same(routed['groups'], [
    { name: 'A', order: 1 },
    { name: 'B', order: 2 },
  ]);
  t.same(withGroupRouting(routed, 'none')['options'], { packing_mode: 'fleet_only' });
  t.notOk('options' in withGroupRouting(withGroupRouting({ items: [] }, 'wall'), 'none'));
  t.equal(groupRoutingOf({ options: { group_routing: 'sideways' } }), 'none', 'an unknown mode reads as the default');
});

t.test('property: any reorder of the stops reads back as that delivery order', async () => {
  fc.assert(
    fc.property(
      fc.uniqueArray(fc.string({ minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 6 }),
      fc.nat(),
      fc.nat(),
      (names, a, b) => {
        const request = withStopOrder({ items: names.map(item) }, names);
        const order = moved(
          deliveryStopsOf(request).map((s) => s.name),
          a % names.length,
          b % names.length,
        );
        return (
          JSON.stringify(deliveryStopsOf(withDeliveryOrder(request, order)).map((s) => s.name)) ===
          JSON.stringify(order)
        );
      },
    ),
  );
});

t.test('stop colours are the viewer and PDF group colours', async (t) => {
  const stops = [{ name: 'A' }, { name: 'B', color: '#123456' }];
  t.same([...stopColours(stops)], [...assignItemColours(['A', 'B'], { B: '#123456' })]);
  t.equal(stopColours(stops).get('B'), '#123456');
});
