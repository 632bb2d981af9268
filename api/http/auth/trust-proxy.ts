/**
 * Trusted proxies: which peers may tell the service the client's address in
 * `X-Forwarded-For`. `TRUST_PROXY` is a comma list of IP addresses, CIDR ranges and the keywords
 * Express accepts (`loopback`, `linklocal`, `uniquelocal`); unset or empty: none, the socket's
 * peer is the client. It becomes Express's `trust proxy` setting, so `req.ip` is the address the
 * nearest trusted proxy forwards; no other header (`Forwarded`, `X-Real-IP`) is ever read.
 */
import type { Request } from 'express';
import { checkAllowList } from '../../../application/ip-allowlist.js';
import { ProfileError } from '../../../domain/process-profile.js';

/** The keywords of Express's `trust proxy` (proxy-addr) this service accepts. */
export const TRUST_PROXY_KEYWORDS = ['loopback', 'linklocal', 'uniquelocal'] as const;

/** Express's `trust proxy` value: false (trust no peer) or the trusted addresses, ranges and keywords. */
export type TrustProxy = false | readonly string[];

/**
 * Parses `TRUST_PROXY`. Throws ProfileError (variable `TRUST_PROXY`) naming every entry that is
 * neither an IPv4/IPv6 address, a CIDR range nor one of TRUST_PROXY_KEYWORDS; hop counts and
 * `true` (trust every peer) are refused on purpose: they let any client choose its address.
 */
export function parseTrustProxy(raw: string | undefined): TrustProxy {
  const entries = (raw ?? '')
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  if (entries.length === 0) return false;
  const bad = entries.filter((e) => {
    if ((TRUST_PROXY_KEYWORDS as readonly string[]).includes(e)) return false;
    try {
      checkAllowList([e]);
      return false;
    } catch {
      return true;
    }
  });
  if (bad.length > 0) {
    throw new ProfileError(
      'TRUST_PROXY',
      `TRUST_PROXY names ${bad.map((b) => JSON.stringify(b)).join(', ')}; use a comma list of IP addresses, CIDR ranges or ${TRUST_PROXY_KEYWORDS.join(', ')}`,
    );
  }
  return entries;
}

/**
 * The client's address: `req.ip` (the socket's peer, or what a trusted proxy forwarded), an
 * IPv4-mapped IPv6 address written as IPv4, so one client is one counter whichever way it came.
 */
export function clientAddress(req: Request): string {
  const ip = req.ip ?? req.socket.remoteAddress ?? 'unknown';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  return mapped ? mapped[1]! : ip;
}
