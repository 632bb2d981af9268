/**
 * The PDF link of a job answers 200 with a PDF whatever valid JSON strings the request carries
 * in the fields the PDF prints (a reference "\ud800" made it answer 404): the
 * reference, item labels and ids, vehicle names and ids; lone surrogates, right-to-left
 * scripts, emoji, newlines and strings at their length limits.
 */
import t from 'tap';
import fc from 'fast-check';
import { call } from '../helpers/service-process.js';
import { inProcessService, orgWithKey } from '../helpers/in-process-service.js';

const running = inProcessService(t, 'pdf-text');

const NASTY = [
  '\ud800',
  '\udfff',
  'a\ud83dz',
  '😀 👩‍👩‍👧',
  'עברית ومرحبا',
  '\u202eevil\u202c',
  'line\nbreak\r\n\ttab',
  '\u0000\u001b[31m',
  '\u2028',
];
/** Any string of UTF-16 code units (lone surrogates too) up to `max` units, or a hard case. */
const text = (min: number, max: number) =>
  fc
    .oneof(
      fc.string({ unit: 'binary', minLength: min, maxLength: max }),
      fc.constantFrom(...NASTY),
      fc.constantFrom(...NASTY).map((s) => s.repeat(Math.floor(max / s.length)).slice(0, max)),
    )
    .filter((s) => s.length >= min && s.length <= max);

t.test('the PDF link answers 200 with a PDF for any printed text', async (t) => {
  const { key } = await orgWithKey(running.service);
  const base = running.service.url;
  let checked = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.record({
        reference: text(0, 128),
        label: text(0, 255),
        itemId: text(1, 128),
        name: text(0, 255),
        vehicleId: text(1, 128),
      }),
      async ({ reference, label, itemId, name, vehicleId }) => {
        const posted = await call(base, key, 'POST', '/v1/pack', {
          reference,
          vehicles: [{ id: vehicleId, type: 'truck', name, length: 300, width: 200, height: 200, max_weight: 1000 }],
          items: [{ id: itemId, label, length: 100, width: 100, height: 100, weight: 10, quantity: 2 }],
          options: { time_limit: 1 },
        });
        if (posted.status !== 202 && posted.status !== 200)
          throw new Error(`POST /v1/pack: ${posted.status} ${JSON.stringify(posted.body)}`);
        const job = (await call(base, key, 'GET', `/v1/jobs/${posted.body.id}?wait=30`)).body;
        if (job.status !== 'succeeded') throw new Error(`job ${job.status}: ${JSON.stringify(job.error)}`);
        if (job.reference !== reference) throw new Error('the reference is not echoed as sent');
        const pdf = await fetch(job.pdf_url);
        const bytes = Buffer.from(await pdf.arrayBuffer());
        if (pdf.status !== 200) throw new Error(`PDF link: ${pdf.status} ${bytes.toString('utf8').slice(0, 200)}`);
        checked++;
        return (
          pdf.headers.get('content-type') === 'application/pdf' && bytes.subarray(0, 5).toString('latin1') === '%PDF-'
        );
      },
    ),
    {
      numRuns: 12,
      examples: [
        [{ reference: '\ud800', label: '\udfff', itemId: 'a\ud83dz', name: '\u202eevil', vehicleId: 'line\nbreak' }],
        // Found by this property: a vehicle id naming an Object.prototype member made the PDF 500.
        [{ reference: '', label: 'x', itemId: '\u0000', name: '', vehicleId: 'toString' }],
      ],
    },
  );
  t.ok(checked >= 12, `every run fetched a PDF (${checked} runs)`);
});
