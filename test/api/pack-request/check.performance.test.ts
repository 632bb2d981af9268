import t from 'tap';
import { checkPackRequest } from '../../../api/http/pack-request/check.js';
import { testContext } from '../../domain/pack/resolve/resolve-context.js';

// Largest job the default limits allow: 2000 item definitions, 20 vehicles.
const body = {
  vehicles: Array.from({ length: 20 }, (_, i) => ({ id: `v${i}`, vehicle_id: 'semi-trailer-13-6' })),
  items: Array.from({ length: 2000 }, (_, i) => ({
    id: `i${i}`,
    length: 20 + (i % 50),
    width: 30,
    height: 40,
    weight: 5,
    group: `g${i % 10}`,
  })),
  options: { lock_rotations: true },
};
const bad = { ...body, items: body.items.map((it) => ({ ...it, weight: -1, colour: 1 })) };

/**
 * Time of one check of `b`, ms: the fastest of 10 runs, so that a run the machine paused (other
 * processes, a GC) does not count; the code's own cost is in every run.
 */
function msPerCheck(b: unknown): number {
  const ctx = testContext();
  checkPackRequest(b, ctx);
  let best = Infinity;
  for (let i = 0; i < 10; i++) {
    const t0 = performance.now();
    checkPackRequest(b, ctx);
    best = Math.min(best, performance.now() - t0);
  }
  return best;
}

t.test('checking the largest allowed job is fast', async (t) => {
  const ok = checkPackRequest(body, testContext());
  t.equal(ok.ok, true);
  const bad0 = checkPackRequest(bad, testContext());
  t.equal(bad0.ok ? 0 : bad0.details.length, 4000, 'two problems per item, all listed');
  const good = msPerCheck(body);
  const wrong = msPerCheck(bad);
  t.comment(`valid: ${good.toFixed(1)} ms per check; 4000 problems: ${wrong.toFixed(1)} ms per check`);
  t.ok(good < 250, `valid body under 250 ms (${good.toFixed(1)} ms)`);
  t.ok(wrong < 500, `invalid body under 500 ms (${wrong.toFixed(1)} ms)`);
});

t.test('many unknown fields cost linear time', async (t) => {
  const fields = Object.fromEntries(Array.from({ length: 50_000 }, (_, i) => [`f${i}`, 1]));
  const body = { ...fields, vehicles: [], items: [] };
  const o = checkPackRequest(body, testContext());
  // The fastest of 3 runs: a pause of the machine is not the code's time.
  let ms = Infinity;
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    checkPackRequest(body, testContext());
    ms = Math.min(ms, performance.now() - t0);
  }
  t.equal(o.ok ? 0 : o.details.length, 50_002);
  t.ok(ms < 2000, `50000 unknown fields checked in ${ms.toFixed(0)} ms`);
});
