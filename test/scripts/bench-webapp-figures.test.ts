/**
 * The pure figures of `npm run bench -- webapp`: a request's kind (DevTools resource type, else
 * MIME type, else extension), transfers summed per kind, medians, axe-core findings counted by
 * impact, and the markdown report.
 */
import t from 'tap';
import fc from 'fast-check';
import {
  kindOf,
  median,
  medianSum,
  sumTransfers,
  type Transfer,
  type TransferKind,
} from '../../scripts/page-transfer.js';
import { blocking, countByImpact, IMPACTS, type AxeFinding } from '../helpers/axe.js';
import { markdownOf, type WebappBenchReport } from '../../scripts/bench-webapp.js';

t.test('kind of a request', async (t) => {
  t.same(
    [
      kindOf('Document', 'text/html', 'http://h/app/playground'),
      kindOf('Script', 'application/javascript', 'http://h/app/assets/index.js'),
      kindOf('Stylesheet', 'text/css', 'http://h/app/assets/index.css'),
      kindOf('Fetch', 'application/json', 'http://h/v1/vehicles?limit=100'),
      kindOf('XHR', 'text/html', 'http://h/x.html'),
      kindOf('Font', 'font/woff2', 'http://h/f.woff2'),
    ],
    ['html', 'js', 'css', 'other', 'other', 'other'],
    'the resource type decides when DevTools gives one',
  );
  t.same(
    [
      kindOf(undefined, 'text/html; charset=utf-8', 'http://h/docs'),
      kindOf('Other', 'text/javascript', 'http://h/a'),
      kindOf(undefined, undefined, 'http://h/assets/a.mjs?v=1'),
      kindOf(undefined, '', 'http://h/assets/a.css#x'),
      kindOf(undefined, undefined, 'http://h/index.htm'),
      kindOf(undefined, 'application/json', 'http://h/plan.json'),
    ],
    ['html', 'js', 'js', 'css', 'html', 'other'],
    'else the MIME type, else the extension',
  );
});

const transfer = fc.record({
  url: fc.webUrl(),
  kind: fc.constantFrom<TransferKind>('html', 'js', 'css', 'other'),
  bytes: fc.nat(10_000_000),
});

t.test('transfers summed per kind', async (t) => {
  t.same(
    sumTransfers([
      { url: 'a', kind: 'js', bytes: 100 },
      { url: 'b', kind: 'js', bytes: 50 },
      { url: 'c', kind: 'html', bytes: 7 },
      { url: 'd', kind: 'other', bytes: 3 },
    ]),
    { html: 7, js: 150, css: 0, other: 3, total: 160, requests: 4 },
  );
  t.same(sumTransfers([]), { html: 0, js: 0, css: 0, other: 0, total: 0, requests: 0 }, 'nothing transferred');
  fc.assert(
    fc.property(fc.array(transfer), (ts: Transfer[]) => {
      const s = sumTransfers(ts);
      return (
        s.total === s.html + s.js + s.css + s.other &&
        s.total === ts.reduce((a, x) => a + x.bytes, 0) &&
        s.requests === ts.length
      );
    }),
  );
  t.pass('the kinds add up to the total, the total to every byte');
});

t.test('medians', async (t) => {
  t.equal(median([5]), 5);
  t.equal(median([3, 1, 2]), 2, 'odd count: the middle value');
  t.equal(median([4, 1, 3, 2]), 2.5, 'even count: the mean of the middle two');
  t.throws(() => median([]), RangeError);
  fc.assert(
    fc.property(
      fc.array(fc.integer(), { minLength: 1 }),
      (xs) =>
        median(xs) === median([...xs].reverse()) && median(xs) >= Math.min(...xs) && median(xs) <= Math.max(...xs),
    ),
  );
  const sums = [100, 300, 200].map((js) =>
    sumTransfers([
      { url: 'a', kind: 'js', bytes: js },
      { url: 'b', kind: 'css', bytes: js / 10 },
    ]),
  );
  t.same(medianSum(sums), { html: 0, js: 200, css: 20, other: 0, total: 220, requests: 2 }, 'per kind, over loads');
});

const finding = (id: string, impact: AxeFinding['impact']): AxeFinding => ({
  id,
  impact,
  help: id,
  nodes: 1,
  targets: [],
});

t.test('axe-core findings by impact', async (t) => {
  const findings = [
    finding('select-name', 'critical'),
    finding('color-contrast', 'serious'),
    finding('nested-interactive', 'serious'),
    finding('region', 'moderate'),
    finding('odd', null),
  ];
  t.same(
    countByImpact(findings),
    { critical: 1, serious: 2, moderate: 1, minor: 1 },
    'a rule without an impact counts as minor',
  );
  t.same(countByImpact([]), { critical: 0, serious: 0, moderate: 0, minor: 0 });
  t.same(
    blocking(findings).map((f) => f.id),
    ['select-name', 'color-contrast', 'nested-interactive'],
    'serious and critical block',
  );
  t.same(IMPACTS, ['critical', 'serious', 'moderate', 'minor']);
});

t.test('the markdown report', async (t) => {
  const bytes = { html: 1024, js: 2048, css: 512, other: 0, total: 3584, requests: 3 };
  const report: WebappBenchReport = {
    root: '/r',
    runs: 2,
    playground: { usable_ms: 200.4, estimate_ms: 610, bytes, runs_ms: [190, 210.8], requests: [] },
    viewer: { first_frame_ms: 1379, bytes, runs_ms: [1300, 1458], requests: [] },
    axe: [
      {
        page: 'docs',
        path: '/docs',
        counts: { critical: 1, serious: 0, moderate: 0, minor: 0 },
        findings: [finding('select-name', 'critical')],
      },
      { page: 'console webhooks', path: '/app/console/webhooks', counts: null, findings: [] },
    ],
  };
  const md = markdownOf(report);
  t.match(md, '| /app/playground (→ usable) | 1.0 | 2.0 | 0.5 | 0.0 | 3.5 | 3 | 200 (first estimate 610) |');
  t.match(md, '| /viewer (→ first 3D frame) | 1.0 | 2.0 | 0.5 | 0.0 | 3.5 | 3 | 1379 |');
  t.match(md, 'playground usable 190, 211; viewer first frame 1300, 1458');
  t.match(md, '| docs | 1 | 0 | 0 | 0 | select-name (critical, 1) |');
  t.match(md, '| console webhooks | – | – | – | – | no such page |');
  t.match(markdownOf({ ...report, axe: null }), 'axe-core is not installed');
});
