/**
 * Checks a webhook URL and the addresses its host resolves to: the scheme must
 * be https or http, and unless private targets are allowed, no address may be internal
 * (adapters/http/internal-address.ts). Used at registration (POST /v1/webhook_endpoints) and
 * again at every delivery, where the connection then goes to the very address checked, so a
 * name that later resolves elsewhere (DNS rebinding) cannot bypass the check.
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { isInternalAddress } from './internal-address.js';

/** A usable target: the parsed URL and the address to connect to. */
export interface CheckedTarget {
  ok: true;
  url: URL;
  address: string;
  family: 4 | 6;
}

/** Why a URL may not be used: `invalid_url`, `unsupported_scheme`, `unresolvable_host` or `private_target`. */
export interface RefusedTarget {
  ok: false;
  code: 'invalid_url' | 'unsupported_scheme' | 'unresolvable_host' | 'private_target';
  message: string;
}

/** How a host name is resolved (node:dns by default; tests may pass their own). */
export type Resolve = (host: string) => Promise<{ address: string; family: number }[]>;

const systemResolve: Resolve = (host) => lookup(host, { all: true, verbatim: true });

/**
 * Checks `raw`. With `allowPrivate` false, refuses when ANY address of the host is internal.
 * Never throws.
 */
export async function checkWebhookTarget(
  raw: string,
  allowPrivate: boolean,
  resolve: Resolve = systemResolve,
): Promise<CheckedTarget | RefusedTarget> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, code: 'invalid_url', message: `"${raw}" is not an absolute URL` };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return {
      ok: false,
      code: 'unsupported_scheme',
      message: `the URL must use https or http, not ${url.protocol.slice(0, -1)}`,
    };
  }
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  let addresses: { address: string; family: number }[];
  if (isIP(host) !== 0) addresses = [{ address: host, family: isIP(host) }];
  else {
    try {
      addresses = await resolve(host);
    } catch (err) {
      return {
        ok: false,
        code: 'unresolvable_host',
        message: `the host ${host} does not resolve (${(err as NodeJS.ErrnoException).code ?? 'error'})`,
      };
    }
  }
  if (addresses.length === 0)
    return { ok: false, code: 'unresolvable_host', message: `the host ${host} has no address` };
  if (!allowPrivate) {
    const inside = addresses.find((a) => isInternalAddress(a.address));
    if (inside) {
      return {
        ok: false,
        code: 'private_target',
        message: `the host ${host} resolves to ${inside.address}, an internal address; webhooks go only to public addresses`,
      };
    }
  }
  const first = addresses[0]!;
  return { ok: true, url, address: first.address, family: first.family === 6 ? 6 : 4 };
}
