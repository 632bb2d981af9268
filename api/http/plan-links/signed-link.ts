/**
 * Signed browser links to a job's plan: no Authorization header, an HMAC-SHA256 (hex) over the
 * link's purpose, the job id and the expiry (Unix seconds) proves the service issued it; valid
 * until the job's `expires_at` (spec Job.pdf_url; Job.viewer_url is our extension).
 * The purpose is part of the signed string, so a PDF link's signature opens neither the viewer
 * nor its plan data, and the other way round. So is the job's link generation (raised when the
 * job's links are revoked, domain/job JobLinksRevoked): a link signed with an older generation
 * fails the check exactly like a tampered one, and links issued afterwards open. A link to a plan
 * revision (plan editing: `revision=N` in its query, N ≥ 1) signs N as well, so a link of one
 * revision opens no other.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** What a signed link opens: the PDF (`pdf_url`) or the 3D viewer and its plan data (`viewer_url`). */
export type LinkPurpose = 'pdf' | 'viewer';

/** The query of a signed link: expiry (Unix time, s), signature (64 hex digits) and, for a plan revision, its number (≥ 1). */
export interface LinkSignature {
  expires: number;
  signature: string;
  revision?: number;
}

/**
 * The signed string. Generation 0 (no revocation yet) keeps the strings links had before
 * revocation existed: PDF links the one from before purposes existed (`<job>.<expires>`), other
 * purposes prefixed (`viewer:<job>.<expires>`), so links already handed out stay valid. A later
 * generation `g` is always prefixed and suffixed: `<purpose>:<job>.<expires>.<g>`. Job ids are
 * `job_[a-z0-9]+` and expiries digits, so no two (purpose, job, expiry, generation) share a string.
 * A revision N ≥ 1 always has the long form with `.r<N>` at the end:
 * `<purpose>:<job>.<expires>.<g>.r<N>`, a string no link of the job's own plan has.
 */
function signedString(purpose: LinkPurpose, jobId: string, expires: number, generation: number, revision = 0): string {
  if (revision > 0) return `${purpose}:${jobId}.${expires}.${generation}.r${revision}`;
  if (generation > 0) return `${purpose}:${jobId}.${expires}.${generation}`;
  return purpose === 'pdf' ? `${jobId}.${expires}` : `${purpose}:${jobId}.${expires}`;
}

function sign(
  key: Buffer,
  purpose: LinkPurpose,
  jobId: string,
  expires: number,
  generation: number,
  revision: number,
): string {
  return createHmac('sha256', key)
    .update(signedString(purpose, jobId, expires, generation, revision))
    .digest('hex');
}

/**
 * Signatures issued lately, by signing key and signed string. A link is a pure function of the
 * key, its purpose, the job, the expiry and the link generation, so a job read again (GET
 * /v1/jobs/{id}, the job list) gets its links without a new HMAC. At most SIGNATURES_KEPT per key
 * (a few hundred bytes each: a few MB at most), the oldest dropped first. Only issuing uses it: a
 * check always recomputes, so links sent by clients never fill it.
 */
const issued = new WeakMap<Buffer, Map<string, string>>();
/** Most signatures kept per signing key. */
export const SIGNATURES_KEPT = 20_000;

function issuedSignature(
  key: Buffer,
  purpose: LinkPurpose,
  jobId: string,
  expires: number,
  generation: number,
  revision: number,
) {
  let kept = issued.get(key);
  if (!kept) {
    kept = new Map();
    issued.set(key, kept);
  }
  const text = signedString(purpose, jobId, expires, generation, revision);
  let signature = kept.get(text);
  if (signature === undefined) {
    signature = createHmac('sha256', key).update(text).digest('hex');
    if (kept.size >= SIGNATURES_KEPT) kept.delete(kept.keys().next().value!);
    kept.set(text, signature);
  }
  return signature;
}

/**
 * The signature of a `purpose` link to `jobId`, valid until `expiresAt` (RFC 3339, whole seconds
 * kept) while the job's link generation is `generation` (0 until its links are first revoked), to
 * the plan of revision `revision` (0: the job's own).
 */
export function signLink(
  key: Buffer,
  purpose: LinkPurpose,
  jobId: string,
  expiresAt: string,
  generation = 0,
  revision = 0,
): LinkSignature {
  const expires = Math.floor(Date.parse(expiresAt) / 1000);
  const signature = issuedSignature(key, purpose, jobId, expires, generation, revision);
  return revision > 0 ? { expires, signature, revision } : { expires, signature };
}

/** `?expires=…&signature=…` of a signed link; `?expires=…&revision=N&signature=…` for a revision N ≥ 1. */
export function linkQuery(link: LinkSignature): string {
  const revision = link.revision ? `&revision=${link.revision}` : '';
  return `?expires=${link.expires}${revision}&signature=${link.signature}`;
}

/**
 * The plan revision a signed link's `revision` query names: 0 when absent, N for the digits of a
 * whole number up to 9 digits, null for anything else (a repeated, nested or malformed value:
 * such a link opens nothing).
 */
export function linkRevisionOf(raw: unknown): number | null {
  if (raw === undefined) return 0;
  return typeof raw === 'string' && /^(0|[1-9][0-9]{0,8})$/.test(raw) ? Number(raw) : null;
}

/**
 * True when `signature` is the one of a `purpose` link to `jobId` expiring at `expires` (as sent:
 * a string of Unix seconds) signed with the job's current link `generation` for plan revision
 * `revision` (0: the job's own), and `nowMs` is before that expiry. Malformed values are false,
 * never thrown.
 */
export function checkLink(
  key: Buffer,
  purpose: LinkPurpose,
  jobId: string,
  expires: string,
  signature: string,
  nowMs: number,
  generation = 0,
  revision = 0,
): boolean {
  const when = Number(expires);
  if (!/^[0-9]{1,12}$/.test(expires) || !Number.isSafeInteger(when) || !/^[0-9a-f]{64}$/.test(signature)) return false;
  const ok = timingSafeEqual(
    Buffer.from(sign(key, purpose, jobId, when, generation, revision), 'hex'),
    Buffer.from(signature, 'hex'),
  );
  return ok && nowMs < when * 1000;
}
