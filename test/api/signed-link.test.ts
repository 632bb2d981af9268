/**
 * Signed plan links (api/http/plan-links/signed-link.ts): a signature opens only its own purpose, job and
 * expiry; it stops at the expiry; malformed values are refused, never thrown; PDF links keep
 * the signed string they had before purposes existed (links already handed out stay valid).
 */
import t from 'tap';
import { createHmac } from 'node:crypto';
import { checkLink, linkQuery, signLink, type LinkPurpose } from '../../api/http/plan-links/signed-link.js';
import { signedPdfPath, signedViewerPath } from '../../api/http/plan-links/plan-links.js';

const key = Buffer.from('00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff', 'hex');
const other = Buffer.from('ff112233445566778899aabbccddeeff00112233445566778899aabbccddeeff', 'hex');
const job = 'job_abc123';
const expiresAt = '2030-01-02T03:04:05.678Z';
const expires = Math.floor(Date.parse(expiresAt) / 1000);
const before = Date.parse(expiresAt) - 60_000;

t.test('a link opens its own purpose and job until its expiry', async (t) => {
  for (const purpose of ['pdf', 'viewer'] as LinkPurpose[]) {
    const link = signLink(key, purpose, job, expiresAt);
    t.equal(link.expires, expires, 'whole seconds of expires_at');
    t.match(link.signature, /^[0-9a-f]{64}$/);
    t.equal(
      checkLink(key, purpose, job, String(link.expires), link.signature, before),
      true,
      `${purpose}: opens before the expiry`,
    );
    t.equal(
      checkLink(key, purpose, job, String(link.expires), link.signature, expires * 1000 - 1),
      true,
      `${purpose}: opens 1 ms before`,
    );
    t.equal(
      checkLink(key, purpose, job, String(link.expires), link.signature, expires * 1000),
      false,
      `${purpose}: closed at the expiry`,
    );
    t.equal(
      checkLink(key, purpose, 'job_abc124', String(link.expires), link.signature, before),
      false,
      `${purpose}: not another job`,
    );
    t.equal(
      checkLink(key, purpose, job, String(link.expires + 1), link.signature, before),
      false,
      `${purpose}: not a later expiry`,
    );
    t.equal(
      checkLink(other, purpose, job, String(link.expires), link.signature, before),
      false,
      `${purpose}: not another key`,
    );
  }
});

t.test('a PDF signature does not open the viewer, nor the other way round', async (t) => {
  const pdf = signLink(key, 'pdf', job, expiresAt);
  const viewer = signLink(key, 'viewer', job, expiresAt);
  t.not(pdf.signature, viewer.signature);
  t.equal(checkLink(key, 'viewer', job, String(pdf.expires), pdf.signature, before), false);
  t.equal(checkLink(key, 'pdf', job, String(viewer.expires), viewer.signature, before), false);
});

t.test('PDF links are signed as before purposes existed: HMAC-SHA256 of "<job>.<expires>"', async (t) => {
  const legacy = createHmac('sha256', key).update(`${job}.${expires}`).digest('hex');
  t.equal(signLink(key, 'pdf', job, expiresAt).signature, legacy);
  t.equal(
    signLink(key, 'viewer', job, expiresAt).signature,
    createHmac('sha256', key).update(`viewer:${job}.${expires}`).digest('hex'),
  );
});

t.test('malformed expiries and signatures are refused', async (t) => {
  const link = signLink(key, 'viewer', job, expiresAt);
  for (const [expiresText, signature] of [
    ['', link.signature],
    ['abc', link.signature],
    [`${expires}.0`, link.signature],
    [`${expires}e0`, link.signature],
    [`-${expires}`, link.signature],
    ['9'.repeat(20), link.signature],
    [String(expires), ''],
    [String(expires), link.signature.toUpperCase()],
    [String(expires), link.signature.slice(1)],
    [String(expires), `${link.signature}00`],
    [String(expires), 'z'.repeat(64)],
  ]) {
    t.equal(
      checkLink(key, 'viewer', job, expiresText!, signature!, before),
      false,
      `expires "${expiresText!.slice(0, 24)}", signature "${signature!.slice(0, 8)}…" (${signature!.length})`,
    );
  }
});

t.test('link paths', async (t) => {
  const pdf = signLink(key, 'pdf', job, expiresAt);
  const viewer = signLink(key, 'viewer', job, expiresAt);
  t.equal(linkQuery(pdf), `?expires=${expires}&signature=${pdf.signature}`);
  t.equal(signedPdfPath(key, job, expiresAt), `/plans/${job}.pdf?expires=${expires}&signature=${pdf.signature}`);
  t.equal(signedViewerPath(key, job, expiresAt), `/viewer/${job}?expires=${expires}&signature=${viewer.signature}`);
});
