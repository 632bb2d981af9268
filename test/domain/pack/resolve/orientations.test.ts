import t from 'tap';
import fc from 'fast-check';
import { allowedOrientations, lockedOrientation, placedSize } from '../../../../domain/pack/resolve/orientations.js';
import { ALL_ORIENTATIONS } from '../../../../domain/pack/plan.js';

const box = { length: 30, width: 20, height: 10 };

t.test('placed sizes of the six orientations', async (t) => {
  t.same(
    ALL_ORIENTATIONS.map((o) => placedSize(o, box)),
    [
      { length: 30, width: 20, height: 10 }, // lwh
      { length: 20, width: 30, height: 10 }, // wlh
      { length: 30, width: 10, height: 20 }, // lhw
      { length: 10, width: 20, height: 30 }, // hwl
      { length: 20, width: 10, height: 30 }, // whl
      { length: 10, width: 30, height: 20 }, // hlw
    ],
  );
});

t.test('orientations allowed by rotation and shape', async (t) => {
  const cases = [
    { shape: 'box', rotation: 'all', size: box, want: ['lwh', 'wlh', 'lhw', 'hwl', 'whl', 'hlw'] },
    { shape: 'box', rotation: 'upright', size: box, want: ['lwh', 'wlh'] },
    { shape: 'box', rotation: 'fixed', size: box, want: ['lwh'] },
    { shape: 'bag', rotation: 'all', size: box, want: ['lwh', 'wlh', 'lhw', 'hwl', 'whl', 'hlw'] },
    { shape: 'pallet', rotation: 'all', size: box, want: ['lwh', 'wlh'] },
    { shape: 'drum', rotation: 'all', size: { length: 60, width: 60, height: 90 }, want: ['lwh'] },
    { shape: 'pallet', rotation: 'fixed', size: box, want: ['lwh'] },
    { shape: 'box', rotation: 'all', size: { length: 50, width: 50, height: 50 }, want: ['lwh'] },
    { shape: 'box', rotation: 'upright', size: { length: 50, width: 50, height: 20 }, want: ['lwh'] },
    { shape: 'cylinder', rotation: 'all', size: { length: 40, width: 40, height: 100 }, want: ['lwh', 'lhw', 'hwl'] },
    { shape: 'box', rotation: 'all', size: { length: 30, width: 30, height: 10 }, want: ['lwh', 'lhw', 'hwl'] },
  ] as const;
  for (const c of cases) {
    t.same(
      allowedOrientations(c.shape, c.rotation, c.size),
      c.want,
      `${c.shape} ${c.rotation} ${JSON.stringify(c.size)}`,
    );
  }
});

t.test('allowed orientations are distinct placed sizes, never empty, upright ones keep the height', async (t) => {
  const dim = fc.integer({ min: 1, max: 5 });
  fc.assert(
    fc.property(
      dim,
      dim,
      dim,
      fc.constantFrom('box', 'pallet', 'drum', 'bag', 'cylinder' as const),
      fc.constantFrom('all', 'upright', 'fixed' as const),
      (l, w, h, shape, rotation) => {
        const size = { length: l, width: w, height: h };
        const os = allowedOrientations(shape, rotation, size);
        const keys = os.map((o) => JSON.stringify(placedSize(o, size)));
        const upright = rotation !== 'all' || shape === 'pallet' || shape === 'drum';
        return (
          os.length > 0 &&
          os[0] === 'lwh' &&
          new Set(keys).size === keys.length &&
          (!upright || os.every((o) => placedSize(o, size).height === h))
        );
      },
    ),
  );
  t.pass();
});

t.test('lock_rotations keeps the first orientation that fits', async (t) => {
  const truck = { length: 1000, width: 240, height: 200 };
  t.equal(lockedOrientation(ALL_ORIENTATIONS, { length: 300, width: 100, height: 50 }, [truck]), 'lwh');
  // 250 cm tall: lwh and wlh are too tall, lhw (100 × 250 × 100) is too wide, hwl lies it down along x.
  t.equal(lockedOrientation(ALL_ORIENTATIONS, { length: 100, width: 100, height: 250 }, [truck]), 'hwl');
  // Fits no vehicle whole: the first whose height fits the tallest vehicle.
  t.equal(lockedOrientation(['lwh', 'wlh', 'lhw'], { length: 2000, width: 100, height: 250 }, [truck]), 'lhw');
  // Fits nowhere at all: the first allowed.
  t.equal(lockedOrientation(['wlh', 'lwh'], { length: 2000, width: 2000, height: 2000 }, [truck]), 'wlh');
  // With two vehicles the taller one counts.
  t.equal(
    lockedOrientation(['lwh', 'wlh'], { length: 100, width: 100, height: 250 }, [
      truck,
      { length: 500, width: 240, height: 260 },
    ]),
    'lwh',
  );
});
