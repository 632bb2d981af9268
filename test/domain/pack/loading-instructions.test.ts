import t from 'tap';
import fc from 'fast-check';
import type { Placement } from '../../../domain/pack/plan.js';
import {
  blockPlace,
  describeInstruction,
  loadingInstructions,
  metres,
  stepRange,
} from '../../../domain/pack/loading-instructions.js';

let step = 0;
function unit(
  item: string,
  x: number,
  y: number,
  z: number,
  size: [number, number, number] = [40, 30, 30],
  weight = 10,
): Placement {
  step++;
  return {
    item_id: item,
    instance: step,
    label: item === 'mw' ? 'Microwave oven' : `Item ${item}`,
    x,
    y,
    z,
    length: size[0],
    width: size[1],
    height: size[2],
    rotated: false,
    orientation: 'lwh',
    step,
    weight,
  };
}

/** A block of `deep` × `high` × `across` units of `item` from (x0, y0, z0), in slices front to back, each slice layer by layer. */
function blockOf(
  item: string,
  x0: number,
  y0: number,
  z0: number,
  across: number,
  high: number,
  deep: number,
): Placement[] {
  const out: Placement[] = [];
  for (let ix = 0; ix < deep; ix++)
    for (let iy = 0; iy < high; iy++)
      for (let iz = 0; iz < across; iz++) out.push(unit(item, x0 + ix * 40, y0 + iy * 30, z0 + iz * 30));
  return out;
}

t.test(
  "the issue's example: 24 microwave ovens, 3 across × 2 high × 4 deep, against the left wall from 3.2 m",
  async (t) => {
    step = 11;
    const first = blockOf('a', 0, 0, 0, 2, 1, 1); // steps 12–13: another item
    const mw = blockOf('mw', 320, 0, 150, 3, 2, 4); // z 150–240 in a 240 cm wide vehicle
    const ins = loadingInstructions([...mw, ...first].reverse(), 240);
    t.equal(ins.length, 2);
    const m = ins[1]!;
    t.same([m.number, m.firstStep, m.lastStep, m.count, m.across, m.high, m.deep], [2, 14, 37, 24, 3, 2, 4]);
    t.same([m.side, m.level, m.weight], ['left', 'floor', 240]);
    t.same(m.min, { x: 320, y: 0, z: 150 });
    t.same(m.max, { x: 480, y: 60, z: 240 });
    t.equal(
      `${stepRange(m)}: ${describeInstruction(m)}`,
      'Steps 14–37: 24 × Microwave oven, 3 across × 2 high × 4 deep, against the left wall from 3.2 m',
    );
    t.equal(describeInstruction(ins[0]!), '2 × Item a, 2 across × 1 high × 1 deep, in the front right corner');
  },
);

t.test('a run of one item is cut where the block is no longer a full grid', async (t) => {
  step = 0;
  // 2 slices of 2 across × 2 high, then 3 more units of the same item in a third slice.
  const units = [...blockOf('a', 0, 0, 0, 2, 2, 2), ...blockOf('a', 80, 0, 0, 2, 1, 1), unit('a', 80, 30, 0)];
  const ins = loadingInstructions(units, 248);
  t.same(
    ins.map((i) => [i.firstStep, i.lastStep, i.across, i.high, i.deep]),
    [
      [1, 8, 2, 2, 2],
      [9, 10, 2, 1, 1],
      [11, 11, 1, 1, 1],
    ],
  );
  t.equal(describeInstruction(ins[2]!), '1 × Item a, against the right wall from 0.8 m, on top, 0.3 m up');
});

t.test('units of another size or orientation start a new instruction', async (t) => {
  step = 0;
  const units = [
    unit('a', 0, 0, 0),
    unit('a', 0, 0, 30, [40, 30, 20]),
    { ...unit('a', 0, 0, 60), orientation: 'wlh' as const },
  ];
  t.equal(loadingInstructions(units, 248).length, 3);
});

t.test("places in the crew's words", async (t) => {
  const min = (x: number, y: number, z: number) => ({ x, y, z });
  t.equal(
    blockPlace({ side: 'full_width', level: 'floor', min: min(0, 0, 0) }),
    'across the full width at the front wall',
  );
  t.equal(
    blockPlace({ side: 'right', level: 'deck', min: min(120, 150, 0) }),
    'against the right wall from 1.2 m, on the second deck',
  );
  t.equal(
    blockPlace({ side: 'centre', level: 'stacked', min: min(600, 120, 80) }),
    'in the middle, 0.8 m from the right wall, from 6 m, on top, 1.2 m up',
  );
  t.equal(blockPlace({ side: 'left', level: 'floor', min: min(8, 0, 100) }), 'in the front left corner');
  t.same([metres(320), metres(1250), metres(5), metres(0), metres(1234.4)], ['3.2', '12.5', '0.05', '0', '12.34']);
});

t.test('level: floor, second deck or stacked; side from the gaps to the walls', async (t) => {
  step = 0;
  const ins = loadingInstructions(
    [unit('a', 0, 0, 0), unit('b', 0, 150, 5), unit('c', 0, 180, 100), unit('d', 40, 0, 215)],
    248,
    150,
  );
  t.same(
    ins.map((i) => [i.level, i.side]),
    [
      ['floor', 'right'],
      ['deck', 'right'],
      ['stacked', 'centre'],
      ['floor', 'left'],
    ],
  );
});

/** Random layouts: blocks of random items on a grid of 40 × 30 × 30 cm cells, loaded in a random order that keeps blocks together sometimes. */
const layout = fc.array(
  fc.record({
    item: fc.constantFrom('a', 'b', 'c'),
    across: fc.integer({ min: 1, max: 4 }),
    high: fc.integer({ min: 1, max: 3 }),
    deep: fc.integer({ min: 1, max: 3 }),
    drop: fc.nat(5),
  }),
  { minLength: 1, maxLength: 8 },
);

t.test(
  'property: every unit in exactly one instruction, steps covered in order, each instruction a full grid of one item',
  async (t) => {
    let runs = 0;
    fc.assert(
      fc.property(layout, fc.boolean(), (blocks, shuffle) => {
        step = 0;
        let x = 0;
        let units: Placement[] = [];
        for (const b of blocks) {
          // `drop` removes a unit from the block's end: partial blocks as a search leaves them.
          const full = blockOf(b.item, x, 0, 0, b.across, b.high, b.deep);
          units.push(...full.slice(0, Math.max(1, full.length - b.drop)));
          x += b.deep * 40;
        }
        // Steps 1..n (a dropped unit took a number); shuffled: a permutation that splits blocks.
        units = units.map((u, i) => ({ ...u, step: shuffle ? ((i * 7) % units.length) + 1 : i + 1 }));
        if (shuffle && units.length % 7 === 0) units = units.map((u, i) => ({ ...u, step: i + 1 }));
        units.sort((p, q) => p.step - q.step);
        const ins = loadingInstructions(units, 160);
        runs++;
        const seen = ins.flatMap((i) => i.placements.map((p) => p.step));
        if (JSON.stringify(seen) !== JSON.stringify(units.map((u) => u.step).sort((a, b) => a - b))) return false;
        let next = 1;
        for (const i of ins) {
          if (i.firstStep !== next || i.lastStep !== next + i.count - 1 || i.placements.length !== i.count)
            return false;
          next = i.lastStep + 1;
          if (i.across * i.high * i.deep !== i.count) return false;
          if (i.placements.some((p) => p.item_id !== i.itemId)) return false;
          // Every cell of the bounding box holds a unit: the volume adds up.
          const vol = (i.max.x - i.min.x) * (i.max.y - i.min.y) * (i.max.z - i.min.z);
          if (Math.abs(vol - i.count * 40 * 30 * 30) > 1e-6) return false;
          if (Math.abs(i.weight - i.count * 10) > 1e-9) return false;
        }
        // Unshuffled, a whole block of one item is never split while the next block is another item.
        if (!shuffle) {
          const whole = blocks.every((b, k) => b.drop === 0 && (k === 0 || blocks[k - 1]!.item !== b.item));
          if (whole && ins.length !== blocks.length) return false;
        }
        return true;
      }),
      { numRuns: 300, seed: 5 },
    );
    t.equal(runs, 300);
  },
);

/** Drums (r 29.5, h 88) in `lines` staggered lines along x, two layers when `layers` is 2, loaded front first (by x, then z, then y). */
function staggeredDrums(lines: number, perLine: number, layers: number): Placement[] {
  const r = 29.5;
  const spots: [number, number, number][] = [];
  for (let k = 0; k < lines; k++) {
    const n = k % 2 === 1 ? perLine - 1 : perLine;
    for (let i = 0; i < n; i++)
      for (let l = 0; l < layers; l++) spots.push([i * 2 * r + (k % 2) * r, l * 88, k * r * Math.sqrt(3)]);
  }
  spots.sort((a, b) => a[0] - b[0] || a[2] - b[2] || a[1] - b[1]);
  return spots.map(([x, y, z]) => unit('drum', x, y, z, [59, 59, 88], 200));
}

t.test('staggered drums make one instruction per block, described as lines', async (t) => {
  step = 0;
  const one = loadingInstructions(staggeredDrums(4, 9, 1), 235);
  t.equal(one.length, 1);
  t.same([one[0]!.count, one[0]!.stagger, one[0]!.across, one[0]!.high, one[0]!.deep], [34, 'lines', 4, 1, 9]);
  t.equal(
    describeInstruction(one[0]!),
    '34 × Item drum, 4 staggered lines of up to 9 × 1 high, in the front right corner',
  );
  step = 0;
  const two = loadingInstructions(staggeredDrums(4, 9, 2), 235);
  t.same(
    two.map((i) => [i.count, i.stagger, i.high]),
    [[68, 'lines', 2]],
  );
  // A gap in a line (one drum missing in the middle of the first line) splits the block.
  step = 0;
  const gappy = staggeredDrums(4, 9, 1).filter((p) => !(p.z === 0 && p.x === 4 * 59));
  t.ok(loadingInstructions(gappy, 235).length > 1);
});
