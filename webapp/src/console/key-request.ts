/**
 * The API-key form of the console (spec Authentication: scopes, optional
 * expiry and IP allowlist) turned into the body of POST /app/api/keys. Pure; tested in
 * test/webapp/key-request.test.ts.
 */

/** Every scope of a key, in the spec's order then ours: the domain's own list, bundled in. */
import { SCOPES, type Scope } from '../../../domain/organization/organization.js';

export { SCOPES, type Scope };

/** What the key form holds: texts as typed. */
export interface KeyForm {
  name: string;
  scopes: readonly Scope[];
  /** `YYYY-MM-DD` from a date input ('' = never expires): the key works through the end of that UTC day. */
  expiresOn: string;
  /** IPs or CIDR ranges separated by commas, spaces or new lines ('' = any address). */
  allowedIps: string;
}

/** Body of POST /app/api/keys `{name, scopes, expires_at?, allowed_ips?}` (values as typed; the service validates). */
export interface KeyRequest {
  name: string;
  scopes: Scope[];
  expires_at?: string;
  allowed_ips?: string[];
}

/** A fresh form: no name, every scope ticked, no expiry, any address. */
export function emptyKeyForm(): KeyForm {
  return { name: '', scopes: [...SCOPES], expiresOn: '', allowedIps: '' };
}

/** The request body of `form`: scopes in SCOPES order, expiry at 23:59:59Z of the chosen day, the allowlist split. */
export function keyRequestOf(form: KeyForm): KeyRequest {
  const body: KeyRequest = { name: form.name.trim(), scopes: SCOPES.filter((s) => form.scopes.includes(s)) };
  const day = form.expiresOn.trim();
  if (day) body.expires_at = /^\d{4}-\d{2}-\d{2}$/.test(day) ? `${day}T23:59:59Z` : day;
  const ips = form.allowedIps.split(/[\s,]+/).filter(Boolean);
  if (ips.length) body.allowed_ips = ips;
  return body;
}

/** The form field a `details[].path` of POST /app/api/keys belongs to. */
export const KEY_FIELDS = ['name', 'scopes', 'expires_at', 'allowed_ips'] as const;
