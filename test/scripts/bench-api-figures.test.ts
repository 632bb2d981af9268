/**
 * The pure parts of `npm run bench -- api` (scripts/bench-api-figures.ts): `--held` levels and
 * whole-number options, CPU ticks from a /proc/<pid>/stat line (a process name with spaces and
 * parentheses too), CPU ms per request, and the `--json` line of a case.
 */
import t from 'tap';
import fc from 'fast-check';
import {
  cpuMsPerRequest,
  figuresLine,
  parseHeldLevels,
  parseProcStat,
  wholeOption,
} from '../../scripts/bench-api-figures.js';

t.test('--held levels', async (t) => {
  t.same(parseHeldLevels('0,100,1000,10000'), [0, 100, 1000, 10000]);
  t.same(parseHeldLevels(' 1000, 0 ,100,100'), [0, 100, 1000], 'sorted, repeats dropped, spaces allowed');
  for (const bad of ['', '1,,2', '-1', '1.5', 'ten', '100k'])
    t.throws(() => parseHeldLevels(bad), RangeError, `"${bad}" is refused`);
});

t.test('whole-number options', async (t) => {
  t.equal(wholeOption('--jobs', '100000'), 100000);
  t.equal(wholeOption('--jobs', '0'), 0);
  t.throws(() => wholeOption('--seconds', '0', 1), { name: 'RangeError', message: /--seconds: "0"/ });
  t.throws(() => wholeOption('--jobs', '1e5'), RangeError);
  t.throws(() => wholeOption('--jobs', ''), RangeError);
});

t.test('CPU ticks of /proc/<pid>/stat', async (t) => {
  const line =
    '19517 (cat) R 19514 19514 22502 0 -1 4194304 99 0 0 0 1234 567 0 0 20 0 1 0 4545362 3133440 376 18446744073709551615';
  t.same(parseProcStat(line), { utime: 1234, stime: 567 });
  t.same(
    parseProcStat(line.replace('(cat)', '(node ) (x) 9 9)')),
    { utime: 1234, stime: 567 },
    'a name with spaces and parentheses',
  );
  t.throws(() => parseProcStat('no name here'), Error);
  t.throws(() => parseProcStat('1 (x) R 1 2'), Error, 'too few fields');
});

t.test('CPU ms per request', async (t) => {
  // 250 ticks of user and 50 of system time at 100 ticks/s = 3 s of CPU over 1,500 requests = 2 ms each.
  t.equal(cpuMsPerRequest({ utime: 1000, stime: 200 }, { utime: 1250, stime: 250 }, 1500, 100), 2);
  t.equal(cpuMsPerRequest({ utime: 1, stime: 1 }, { utime: 9, stime: 9 }, 0, 100), null, 'no request: none');
  fc.assert(
    fc.property(
      fc.nat(1e6),
      fc.nat(1e6),
      fc.nat(1e5),
      fc.nat(1e5),
      fc.integer({ min: 1, max: 1e6 }),
      (u, s, du, ds, requests) => {
        const ms = cpuMsPerRequest({ utime: u, stime: s }, { utime: u + du, stime: s + ds }, requests, 100)!;
        return Math.abs(ms * requests - (du + ds) * 10) < 1e-6 * Math.max(1, (du + ds) * 10);
      },
    ),
  );
});

t.test('the --json line of a case', async (t) => {
  const line = figuresLine({
    case: 'pack',
    held: 1000,
    rps: 301.4567,
    p50_ms: 12,
    p99_ms: 95.12345,
    non2xx: 0,
    cpu_ms: 2.0004567,
    ratio: 0.0223456,
    jobs: 100000,
    held_end: 4015,
  });
  t.notMatch(line, /\n/, 'one line');
  t.same(JSON.parse(line), {
    case: 'pack',
    held: 1000,
    rps: 301,
    p50_ms: 12,
    p99_ms: 95.123,
    non2xx: 0,
    cpu_ms: 2,
    ratio: 0.022,
    jobs: 100000,
    held_end: 4015,
  });
  t.same(
    Object.keys(JSON.parse(line) as object).slice(0, 5),
    ['case', 'held', 'rps', 'p50_ms', 'p99_ms'],
    'the fields the lead reads come first',
  );
  const bare = JSON.parse(
    figuresLine({
      case: 'bare',
      held: 0,
      rps: 13476,
      p50_ms: 3,
      p99_ms: 9,
      non2xx: 0,
      cpu_ms: null,
      ratio: 1,
      jobs: 2000,
      held_end: 0,
    }),
  ) as { cpu_ms: unknown };
  t.equal(bare.cpu_ms, null, 'no CPU figure for bare Express');
});
