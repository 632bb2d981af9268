/**
 * Signed browser links to a job's PDF (spec Job.pdf_url: no header needed, valid until
 * `expires_at`): `/plans/<job>.pdf?expires=<unix s>&signature=<HMAC-SHA256 hex>`.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

function sign(key: Buffer, jobId: string, expires: number): string {
  return createHmac('sha256', key).update(`${jobId}.${expires}`).digest('hex');
}

/** Path and query of the signed link of `jobId`, valid until `expiresAt` (RFC 3339). */
export function signedPdfPath(key: Buffer, jobId: string, expiresAt: string): string {
  const expires = Math.floor(Date.parse(expiresAt) / 1000);
  return `/plans/${jobId}.pdf?expires=${expires}&signature=${sign(key, jobId, expires)}`;
}

/** True when the signature is right and `nowMs` is before the expiry. */
export function checkPdfLink(key: Buffer, jobId: string, expires: string, signature: string, nowMs: number): boolean {
  const when = Number(expires);
  if (!Number.isSafeInteger(when) || !/^[0-9a-f]{64}$/.test(signature)) return false;
  const ok = timingSafeEqual(Buffer.from(sign(key, jobId, when), 'hex'), Buffer.from(signature, 'hex'));
  return ok && nowMs < when * 1000;
}
