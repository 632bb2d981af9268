/**
 * The PDF renders of signed links (api/http/plan-links/pdf-renders.ts): parallel requests for one
 * PDF render it once and later ones come from the cache; a new link generation, revision or
 * display unit renders anew; renders run at the bounded concurrency and a full queue answers
 * 429 with Retry-After; GETs are limited per link and per address (429 with Retry-After); a
 * failed render is not cached. Then over HTTP on the real service: 20 parallel GETs of one large
 * plan's PDF are one render with 20 identical answers, and the link's 31st GET in a minute is 429.
 */
import t from 'tap';
import { PDF_GETS_PER_LINK_PER_MINUTE, PdfRenders, type PdfKey } from '../../api/http/plan-links/pdf-renders.js';
import { inProcessService, orgWithKey } from '../helpers/in-process-service.js';
import { call } from '../helpers/service-process.js';

const KEY: PdfKey = { jobId: 'job_a', revision: 0, generation: 0, displayUnits: 'metric' };
const LATER = '2099-01-01T00:00:00.000Z';

/** A render the test releases by hand, counting how many run at once. */
function gatedRenders() {
  let running = 0;
  let most = 0;
  const waiting: (() => void)[] = [];
  const render = (bytes: string) => async (): Promise<Buffer> => {
    running += 1;
    most = Math.max(most, running);
    await new Promise<void>((resolve) => waiting.push(resolve));
    running -= 1;
    return Buffer.from(bytes);
  };
  /** Lets every render started so far finish, and waits until the event loop has seen them. */
  const releaseAll = async (): Promise<void> => {
    while (waiting.length > 0) waiting.shift()!();
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { render, releaseAll, most: () => most, waiting: () => waiting.length };
}

t.test('parallel requests for one PDF render it once; later ones come from the cache', async (t) => {
  const renders = new PdfRenders();
  const gate = gatedRenders();
  const answers = Array.from({ length: 20 }, () =>
    renders.pdf(KEY, 'sig', '198.51.100.1', LATER, gate.render('pdf-a')),
  );
  await new Promise((resolve) => setImmediate(resolve));
  await gate.releaseAll();
  const pdfs = await Promise.all(answers);
  t.same(new Set(pdfs.map((p) => p.toString())), new Set(['pdf-a']), 'every answer is the one PDF');
  t.equal(renders.renders, 1, 'rendered once');
  const again = await renders.pdf(KEY, 'sig', '198.51.100.1', LATER, gate.render('other'));
  t.equal(again.toString(), 'pdf-a', 'from the cache');
  t.equal(renders.renders, 1);
  for (const changed of [{ generation: 1 }, { revision: 2 }, { displayUnits: 'imperial' }]) {
    const next = renders.pdf({ ...KEY, ...changed }, 'sig2', '198.51.100.1', LATER, gate.render('new'));
    await new Promise((resolve) => setImmediate(resolve));
    await gate.releaseAll();
    t.equal((await next).toString(), 'new', `${JSON.stringify(changed)}: rendered anew`);
  }
  t.equal(renders.renders, 4);
});

t.test('renders run two at once; a full queue answers 429 with Retry-After', async (t) => {
  const renders = new PdfRenders({ concurrency: 2, queue: 3 });
  const gate = gatedRenders();
  const started = [1, 2, 3, 4, 5].map((n) =>
    renders.pdf({ ...KEY, jobId: `job_${n}` }, `sig${n}`, '198.51.100.2', LATER, gate.render(`pdf-${n}`)),
  );
  await new Promise((resolve) => setImmediate(resolve));
  t.equal(gate.waiting(), 2, 'two render, three wait');
  await t.rejects(
    renders.pdf({ ...KEY, jobId: 'job_6' }, 'sig6', '198.51.100.2', LATER, gate.render('pdf-6')),
    { code: 'rate_limited', retryAfterSeconds: 2 },
    'a sixth distinct PDF finds every slot and queue place taken',
  );
  while (gate.waiting() > 0) await gate.releaseAll();
  t.same(
    (await Promise.all(started)).map((p) => p.toString()),
    ['pdf-1', 'pdf-2', 'pdf-3', 'pdf-4', 'pdf-5'],
  );
  t.equal(gate.most(), 2, 'never more than two at once');
});

t.test('GETs are limited per link and per address; a failed render is not cached', async (t) => {
  const renders = new PdfRenders({ perLinkPerMinute: 3, perAddressPerMinute: 5 });
  const quick = async (): Promise<Buffer> => Buffer.from('pdf');
  for (let i = 0; i < 3; i++) await renders.pdf(KEY, 'one-link', '203.0.113.1', LATER, quick);
  await t.rejects(renders.pdf(KEY, 'one-link', '203.0.113.9', LATER, quick), {
    code: 'rate_limited',
    message: /GETs a minute of this PDF link/,
  });
  const refused = await renders.pdf(KEY, 'one-link', '203.0.113.9', LATER, quick).catch((e: unknown) => e);
  t.ok((refused as { retryAfterSeconds: number }).retryAfterSeconds >= 1, 'with Retry-After');
  // The address has had three GETs; the refused ones came from another address.
  await renders.pdf(KEY, 'second-link', '203.0.113.1', LATER, quick);
  await renders.pdf(KEY, 'third-link', '203.0.113.1', LATER, quick);
  await t.rejects(
    renders.pdf(KEY, 'fourth-link', '203.0.113.1', LATER, quick),
    { code: 'rate_limited', message: /PDF links from this address/ },
    'the sixth GET from the address is refused, whatever the link',
  );
  const fresh = new PdfRenders();
  await t.rejects(
    fresh.pdf(KEY, 'l', '203.0.113.2', LATER, async () => {
      throw new Error('store down');
    }),
    /store down/,
  );
  t.equal((await fresh.pdf(KEY, 'l', '203.0.113.2', LATER, quick)).toString(), 'pdf', 'tried again: rendered');
});

const run = inProcessService(t, 'pdf-renders');

t.test('over HTTP: 20 parallel GETs of one PDF link are one render; the link is limited per minute', async (t) => {
  const o = await orgWithKey(run.service);
  const posted = await call(run.service.url, o.key, 'POST', '/v1/pack?wait=60', {
    vehicles: [{ vehicle_id: 'rigid-7-5t' }],
    items: [{ id: 'carton', length: 40, width: 30, height: 30, weight: 5, quantity: 120 }],
    options: { time_limit: 5 },
  });
  t.equal(posted.body.status, 'succeeded');
  const url = (posted.body.pdf_url as string).replace(/^http:\/\/[^/]+/, run.service.url);
  const answers = await Promise.all(
    Array.from({ length: 20 }, async () => {
      const res = await fetch(url);
      return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()) };
    }),
  );
  t.same(
    answers.map((a) => a.status),
    Array(20).fill(200),
  );
  t.equal(new Set(answers.map((a) => a.bytes.toString('base64'))).size, 1, 'twenty identical PDFs');
  t.equal(answers[0]!.bytes.subarray(0, 5).toString(), '%PDF-');
  for (let i = 20; i < PDF_GETS_PER_LINK_PER_MINUTE; i++) t.equal(await fetch(url).then((r) => r.status), 200);
  const over = await fetch(url);
  t.equal(over.status, 429, `GET number ${PDF_GETS_PER_LINK_PER_MINUTE + 1} of the link in a minute`);
  t.ok(Number(over.headers.get('retry-after')) >= 1, 'with Retry-After');
  t.equal(((await over.json()) as { error: { code: string } }).error.code, 'rate_limited');
});
