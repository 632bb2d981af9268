/**
 * Signed browser links to a job's plan: no Authorization header, an HMAC-SHA256 (hex) over the
 * link's purpose, the job id and the expiry (Unix seconds) proves the service issued it; valid
 * until the job's `expires_at` (spec Job.pdf_url; Job.viewer_url is our extension, issue 9).
 * The purpose is part of the signed string, so a PDF link's signature opens neither the viewer
 * nor its plan data, and the other way round.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** What a signed link opens: the PDF (`pdf_url`) or the 3D viewer and its plan data (`viewer_url`). */
export type LinkPurpose = 'pdf' | 'viewer';

/** The query of a signed link: expiry (Unix time, s) and signature (64 hex digits). */
export interface LinkSignature {
  expires: number;
  signature: string;
}

/**
 * The signed string. PDF links keep the string they had before purposes existed
 * (`<job>.<expires>`), so PDF links already handed out stay valid; other purposes are prefixed
 * (`viewer:<job>.<expires>`). Job ids are `job_[a-z0-9]+`, so no string of one purpose is the
 * string of another.
 */
function signedString(purpose: LinkPurpose, jobId: string, expires: number): string {
  return purpose === 'pdf' ? `${jobId}.${expires}` : `${purpose}:${jobId}.${expires}`;
}

function sign(key: Buffer, purpose: LinkPurpose, jobId: string, expires: number): string {
  return createHmac('sha256', key).update(signedString(purpose, jobId, expires)).digest('hex');
}

/** The signature of a `purpose` link to `jobId`, valid until `expiresAt` (RFC 3339, whole seconds kept). */
export function signLink(key: Buffer, purpose: LinkPurpose, jobId: string, expiresAt: string): LinkSignature {
  const expires = Math.floor(Date.parse(expiresAt) / 1000);
  return { expires, signature: sign(key, purpose, jobId, expires) };
}

/** `?expires=…&signature=…` of a signed link. */
export function linkQuery(link: LinkSignature): string {
  return `?expires=${link.expires}&signature=${link.signature}`;
}

/**
 * True when `signature` is the one of a `purpose` link to `jobId` expiring at `expires` (as sent:
 * a string of Unix seconds) and `nowMs` is before that expiry. Malformed values are false, never
 * thrown.
 */
export function checkLink(key: Buffer, purpose: LinkPurpose, jobId: string, expires: string, signature: string, nowMs: number): boolean {
  const when = Number(expires);
  if (!/^[0-9]{1,12}$/.test(expires) || !Number.isSafeInteger(when) || !/^[0-9a-f]{64}$/.test(signature)) return false;
  const ok = timingSafeEqual(Buffer.from(sign(key, purpose, jobId, when), 'hex'), Buffer.from(signature, 'hex'));
  return ok && nowMs < when * 1000;
}
