import t from 'tap';
import fc from 'fast-check';
import {
  blockExtent,
  blocksFor,
  cappedColumns,
  rankBlocks,
  type Block,
  type CapKind,
} from '../../../solver/search/block.js';
import { initialSpace } from '../../../solver/search/maximal-space.js';

const space = initialSpace(200, 100, 110);
const column = (o: Partial<Block> = {}): Block => ({
  item: 0,
  orientation: 'lwh',
  size: { l: 50, w: 50, h: 30, pitch: 30 },
  nx: 2,
  ny: 3,
  nz: 2,
  x: 0,
  y: 0,
  z: 0,
  ...o,
});
const cap = (o: Partial<CapKind> = {}): CapKind => ({
  item: 1,
  orientation: 'lwh',
  size: { l: 45, w: 40, h: 20, pitch: 20 },
  available: 10,
  weight: 1,
  ...o,
});

t.test('a column gets a cap on its top inside its footprint, and a lowered column one that needs room', async (t) => {
  const out = cappedColumns(
    column(),
    space,
    [cap(), cap({ item: 2, size: { l: 100, w: 100, h: 40, pitch: 40 }, available: 1 })],
    12,
    1,
    Infinity,
    Infinity,
    100,
  );
  // As built (90 of 110 cm) only the 20 cm cap fits; lowered to 2 layers (60 cm) the 40 cm one does.
  t.same(
    out.map((b) => [b.ny, b.cap?.item, b.cap?.nx, b.cap?.nz, b.cap?.y]),
    [
      [3, 1, 2, 2, 90],
      [2, 2, 1, 1, 60],
    ],
  );
});

t.test('a lowered column runs longer with the units of its lost layers', async (t) => {
  const out = cappedColumns(
    column(),
    space,
    [cap({ size: { l: 100, w: 100, h: 40, pitch: 40 } })],
    16,
    1,
    Infinity,
    Infinity,
    100,
  );
  t.same(
    out.map((b) => [b.nx, b.ny, b.nz, b.cap?.nx, b.cap?.nz]),
    [[4, 2, 2, 2, 1]],
  );
});

t.test('caps respect the payload left, the units left and the stack limit', async (t) => {
  t.same(
    cappedColumns(column(), space, [cap()], 12, 1, 12 + 3, Infinity, 100).map((b) => b.cap!.nx * b.cap!.nz),
    [2],
  );
  t.same(
    cappedColumns(column(), space, [cap({ available: 1 })], 12, 1, Infinity, Infinity, 100).map(
      (b) => b.cap!.nx * b.cap!.nz,
    ),
    [1],
  );
  t.same(cappedColumns(column(), space, [cap()], 12, 1, Infinity, 3, 100), []);
  t.same(cappedColumns(column(), space, [cap()], 12, 1, 12, Infinity, 100), []);
});

t.test('a block that supports nothing and leaves usable room above ranks after all others', async (t) => {
  const big = column({ item: 1, nx: 4, ny: 1 });
  const small = column({ nx: 1, ny: 1, nz: 1 });
  t.same(
    rankBlocks([big, small], 'volume', space, (b) => b.item === 1),
    [small, big],
  );
  t.same(
    rankBlocks([big, small], 'volume', space, () => false),
    [big, small],
  );
});

t.test('ranking with a limit gives the head of the full ranking', async (t) => {
  const sizes = fc
    .record({
      l: fc.integer({ min: 5, max: 60 }),
      w: fc.integer({ min: 5, max: 60 }),
      h: fc.integer({ min: 5, max: 60 }),
    })
    .map((s) => ({ ...s, pitch: s.h }));
  fc.assert(
    fc.property(
      fc.array(sizes, { minLength: 1, maxLength: 12 }),
      fc.integer({ min: 1, max: 6 }),
      fc.boolean(),
      (ss, limit, fit) => {
        const blocks = ss.flatMap((size, item) =>
          blocksFor(item % 3, 'lwh', size, space, { available: 40, byWeight: Infinity, layers: Infinity }, 100, true),
        );
        const score = fit ? 'fit' : 'volume';
        const waste = (b: Block): boolean => b.nx === 1;
        const full = rankBlocks(blocks, score, space, waste);
        const head = rankBlocks(blocks, score, space, waste, limit);
        if (JSON.stringify(head) !== JSON.stringify(full.slice(0, limit))) throw new Error('limited ranking differs');
      },
    ),
    { numRuns: 200, seed: 3 },
  );
  t.pass('200 random block lists');
});

t.test('nesting units: each further layer adds its pitch, so more fit a column', async (t) => {
  // 30 cm buckets sinking 20 cm into each other: 30 + 10 · (n − 1) ≤ 110 gives 9 layers, 3 without nesting.
  const nested = blocksFor(
    0,
    'lwh',
    { l: 50, w: 50, h: 30, pitch: 10 },
    space,
    { available: 9, byWeight: Infinity, layers: Infinity },
    100,
  );
  t.same(
    nested.map((b) => [b.nx, b.ny, b.nz]),
    [
      [1, 9, 1],
      [1, 4, 2],
    ],
    'column first, then across the width',
  );
  t.equal(blockExtent(nested[0]!).dy, 110);
  const plain = blocksFor(
    0,
    'lwh',
    { l: 50, w: 50, h: 30, pitch: 30 },
    space,
    { available: 9, byWeight: Infinity, layers: Infinity },
    100,
  );
  t.equal(Math.max(...plain.map((b) => b.ny)), 3);
});
