/**
 * Fixed-window counts in memory (api/http/auth/memory-rate-windows.ts): a window opens with its
 * first count and lasts its duration, points given back come off the open window, a count after
 * the end opens a new one, and ended windows are swept.
 */
import t from 'tap';
import { MemoryRateWindows } from '../../api/http/auth/memory-rate-windows.js';

t.test('windows open, count, end and reopen', async (t) => {
  const w = new MemoryRateWindows(60_000);
  t.same(w.add('key_a', 1, 1_000), { count: 1, endsAt: 61_000 });
  t.same(w.add('key_a', 1, 30_000), { count: 2, endsAt: 61_000 }, 'the same window');
  t.same(w.add('key_a', -1, 30_001), { count: 1, endsAt: 61_000 }, 'a point given back');
  t.same(w.add('key_b', 1, 30_000), { count: 1, endsAt: 90_000 }, 'subjects apart');
  t.same(w.current('key_a', 60_999), { count: 1, endsAt: 61_000 });
  t.equal(w.current('key_a', 61_000), undefined, 'ended');
  t.same(w.add('key_a', 1, 61_000), { count: 1, endsAt: 121_000 }, 'a new window');
});

t.test('ended windows are swept as new ones open', async (t) => {
  const w = new MemoryRateWindows(1_000);
  for (let i = 0; i < 5_000; i++) w.add(`ip_${i}`, 1, i * 10);
  t.ok(w.size < 2_100, `at most about twice the windows open in the last second (${w.size})`);
  t.same(w.current('ip_4999', 49_990), { count: 1, endsAt: 50_990 });
});
