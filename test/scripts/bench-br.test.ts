/**
 * The BR bench's arguments (scripts/bench-br.ts): files found by name beside the
 * repository, ranges, and bad arguments refused with one RangeError (the bench prints its
 * message as one line, no stack trace); the tiniest budget ends with a plan or a clear reason.
 */
import t from 'tap';
import { basename } from 'node:path';
import { benchBr, parseRange, resolveBrFile } from '../../scripts/bench-br.js';

t.test('BR3 means thpack3.txt, BR12 means BR12.txt; an unknown name is refused naming what was tried', async (t) => {
  t.equal(basename(resolveBrFile('BR3')), 'thpack3.txt');
  t.equal(basename(resolveBrFile('br12')), 'BR12.txt');
  t.equal(basename(resolveBrFile('thpack7.txt')), 'thpack7.txt');
  t.throws(() => resolveBrFile('BR99'), { name: 'RangeError', message: /no BR file "BR99" \(tried .*BR99/ });
});

t.test('ranges: N or N-M, anything else refused', async (t) => {
  t.same(parseRange('3'), [3]);
  t.same(parseRange('2-5'), [2, 3, 4, 5]);
  for (const bad of ['5-2', 'x', '1-', '']) t.throws(() => parseRange(bad), RangeError, bad);
});

t.test('bad budgets are refused before anything runs; a 1 ms budget still ends with a row', async (t) => {
  await t.rejects(benchBr(['BR1'], { instances: '1', budget: 'soon', json: true }), RangeError);
  await t.rejects(benchBr(['BR1'], { instances: '1', budget: '100', work: '0', json: true }), RangeError);
  const lines: string[] = [];
  const log = console.log;
  console.log = (s: string) => lines.push(s);
  try {
    const rows = await benchBr(['BR1'], { instances: '1', budget: '1', threads: '1', json: true });
    t.equal(rows.length, 1);
    const row = rows[0]!;
    if (row.error) {
      t.match(row.error, /budget ended|timed/, `no plan, with its reason: ${row.error}`);
      t.equal(row.fill, 0);
    } else {
      t.equal(row.verified, true, `a plan of ${row.fill.toFixed(2)} % that verifies`);
      t.ok(row.placed > 0);
    }
    t.same(JSON.parse(lines.find((l) => l.startsWith('{'))!), row, '--json prints the row');
  } finally {
    console.log = log;
  }
});
