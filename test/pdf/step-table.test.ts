import t from 'tap';
import type { Placement } from '../../domain/pack/plan.js';
import { STEP_ROWS_PER_PAGE, restingOn, stepPageCount } from '../../pdf/step-table.js';

function unit(step: number, x: number, y: number, z: number, length: number, height: number, width: number): Placement {
  return {
    item_id: 'a',
    instance: step,
    label: 'A',
    x,
    y,
    z,
    length,
    width,
    height,
    rotated: false,
    orientation: 'lwh',
    step,
    weight: 1,
  };
}

t.test('restingOn names the floor or the units underneath, by step', async (t) => {
  const a = unit(1, 0, 0, 0, 100, 50, 100);
  const b = unit(2, 100, 0, 0, 100, 50, 100);
  const bridge = unit(3, 50, 50, 0, 100, 30, 100); // spans a and b
  const onA = unit(4, 0, 50, 0, 50, 30.1, 100); // 0.1 cm taller, on a only
  const onTop = unit(5, 0, 80.1, 0, 50, 10, 50);
  const floating = unit(6, 300, 20, 0, 10, 10, 10);
  const edge = unit(7, 150, 80, 0, 50, 10, 100); // touches the bridge's top only at x = 150: not resting on it
  const r = restingOn([a, b, bridge, onA, onTop, floating, edge]);
  t.equal(r.get(a), 'floor');
  t.equal(r.get(bridge), 'on 1, 2');
  t.equal(r.get(onA), 'on 1');
  t.equal(r.get(onTop), 'on 4');
  t.equal(r.get(floating), '?');
  t.equal(r.get(edge), '?');
});

t.test('step pages: rows per page and page counts', async (t) => {
  t.equal(STEP_ROWS_PER_PAGE, 42);
  t.equal(stepPageCount(0), 1);
  t.equal(stepPageCount(42), 1);
  t.equal(stepPageCount(43), 2);
  t.equal(stepPageCount(2000), 48);
});

t.test('restingOn says "deck" on the second deck and "in n" for a unit nested into another', async (t) => {
  const low = unit(1, 0, 0, 0, 100, 140, 100); // ends 10 cm under the deck
  const deck = unit(2, 0, 150, 0, 100, 50, 100);
  const bucket = unit(3, 200, 0, 0, 40, 30, 40);
  const nested = unit(4, 200, 10, 0, 40, 30, 40); // sinks 20 cm into bucket 3
  const nested2 = unit(5, 200, 20, 0, 40, 30, 40); // into 4 (and 3): the highest host is named
  const r = restingOn([low, deck, bucket, nested, nested2], 150);
  t.same(
    [r.get(low), r.get(deck), r.get(bucket), r.get(nested), r.get(nested2)],
    ['floor', 'deck', 'floor', 'in 3', 'in 4'],
  );
  t.equal(restingOn([deck]).get(deck), '?', 'without a deck the same unit floats');
});
