/**
 * Every text field the PDF prints takes any valid JSON string: references,
 * item labels and ids, vehicle names and ids with lone surrogates, right-to-left scripts, emoji,
 * control characters, newlines and lengths far past a column still render to a PDF.
 */
import t from 'tap';
import fc from 'fast-check';
import type { Plan } from '../../domain/pack/plan.js';
import { printableText } from '../../pdf/page.js';
import { renderPlanPdf } from '../../pdf/pdf.js';
import { buildVehicle, countPdfPages } from './plan-fixture.js';
import { propertyRuns } from '../helpers/property-runs.js';

/** Hard cases every run may draw besides arbitrary UTF-16 strings. */
const NASTY = [
  '\ud800',
  '\udfff',
  'a\ud83dz',
  '\ud83d\ude00 emoji 👩‍👩‍👧',
  'עברית ومرحبا بالعربية',
  '\u202eevil\u202c',
  'line\nbreak\r\ntab\t',
  '\u0000\u0007\u001b[31m',
  '\u0085\u2028\u2029',
  '',
];

/** Any JavaScript string (UTF-16 code units, so lone surrogates too), or one of NASTY, up to 300 units. */
export const anyText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 300 }),
  fc.string({ unit: fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)), maxLength: 5 }),
  fc.constantFrom(...NASTY),
  fc.constantFrom(...NASTY).map((s) => s.repeat(40)),
);

t.test('printableText: well-formed, one line, no controls, and the letters kept', async (t) => {
  fc.assert(
    fc.property(anyText, (text) => {
      const out = printableText(text);
      encodeURIComponent(out); // throws URIError on a lone surrogate
      return !/[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]/u.test(out);
    }),
    propertyRuns(300, 5),
  );
  t.pass('strings made printable');
  t.equal(printableText('a\ud800b\nc\u202ed 😀 שלום'), 'a\ufffdb cd 😀 שלום');
});

t.test('the PDF renders whatever the reference, labels, ids and vehicle names say', async (t) => {
  await fc.assert(
    fc.asyncProperty(
      fc.record({
        reference: anyText,
        label: anyText,
        itemId: anyText.filter((s) => s !== ''),
        name: anyText,
        vehicleId: anyText,
      }),
      async ({ reference, label, itemId, name, vehicleId }) => {
        const vehicle = buildVehicle(
          { index: 0, id: vehicleId, name, type: 'truck', length: 300, width: 200, height: 200, maxWeight: 1000 },
          [{ id: itemId, label, length: 100, width: 100, height: 100, weight: 10, count: 3 }],
        );
        const plan: Plan = {
          vehicles: [vehicle.vehicle],
          unplaced: [{ item_id: itemId, instance: 4, label, reason: 'no_space' }],
        };
        const pdf = await renderPlanPdf({ jobId: 'job_prop', reference, createdAt: '2026-11-22T00:00:00Z', plan });
        return pdf.subarray(0, 5).toString('latin1') === '%PDF-' && countPdfPages(pdf) >= 2;
      },
    ),
    propertyRuns(15, 6),
  );
  t.pass('plans rendered');
});
