/**
 * The receivers' signature helper (clients/typescript/src/webhook-signature.ts) against the
 * service's own signer (domain/webhook/signature.ts): good, tampered, stale, malformed.
 */
import t from 'tap';
import { createHmac } from 'node:crypto';
import { verifyWebhookSignature } from '../../clients/typescript/src/webhook-signature.js';
import { webhookSignatureHeader } from '../../domain/webhook/signature.js';

const secret = 'whsec_test-secret';
const body =
  '{"id":"evt_1","type":"job.succeeded","created_at":"2026-11-23T10:00:00.000Z","data":{"job":{"id":"job_1"}}}';
const t0 = 1_795_000_000;
const at = (s: number) => new Date(s * 1000);

t.test('a good signature verifies, from a string or the raw bytes', async (t) => {
  const header = webhookSignatureHeader(secret, t0, body);
  t.match(header, /^t=1795000000,v1=[0-9a-f]{64}$/);
  t.same(verifyWebhookSignature(body, header, secret, { now: at(t0 + 10) }), { ok: true, timestamp: t0 });
  t.same(verifyWebhookSignature(Buffer.from(body), header, secret, { now: at(t0) }), { ok: true, timestamp: t0 });
  const hmac = createHmac('sha256', secret).update(`${t0}.${body}`).digest('hex');
  t.same(
    verifyWebhookSignature(body, `t=${t0},v1=${'0'.repeat(64)},v1=${hmac}`, secret, { now: at(t0) }),
    { ok: true, timestamp: t0 },
    'one of several v1 entries',
  );
});

t.test('a tampered body, timestamp or secret is refused', async (t) => {
  const header = webhookSignatureHeader(secret, t0, body);
  t.same(verifyWebhookSignature(body.replace('job_1', 'job_2'), header, secret, { now: at(t0) }), {
    ok: false,
    reason: 'signature_mismatch',
  });
  t.same(verifyWebhookSignature(body, header.replace(`t=${t0}`, `t=${t0 + 1}`), secret, { now: at(t0) }), {
    ok: false,
    reason: 'signature_mismatch',
  });
  t.same(verifyWebhookSignature(body, header, 'whsec_other', { now: at(t0) }), {
    ok: false,
    reason: 'signature_mismatch',
  });
});

t.test('a stale or future timestamp is refused outside the tolerance', async (t) => {
  const header = webhookSignatureHeader(secret, t0, body);
  t.same(
    verifyWebhookSignature(body, header, secret, { now: at(t0 + 301) }),
    { ok: false, reason: 'timestamp_outside_tolerance' },
    'default 300 s',
  );
  t.same(
    verifyWebhookSignature(body, header, secret, { now: at(t0 + 300) }),
    { ok: true, timestamp: t0 },
    'at the edge',
  );
  t.same(verifyWebhookSignature(body, header, secret, { now: at(t0 - 61), toleranceSeconds: 60 }), {
    ok: false,
    reason: 'timestamp_outside_tolerance',
  });
  t.same(verifyWebhookSignature(body, header, secret, { now: at(t0 + 3600), toleranceSeconds: 7200 }), {
    ok: true,
    timestamp: t0,
  });
});

t.test('a missing or malformed header is refused', async (t) => {
  for (const header of [undefined, null, '', 'v1=abc', `t=${t0}`, `t=now,v1=${'a'.repeat(64)}`, `t=${t0},v1=xyz`]) {
    t.same(
      verifyWebhookSignature(body, header, secret, { now: at(t0) }),
      { ok: false, reason: 'malformed_header' },
      String(header),
    );
  }
});
