/**
 * API key IP allowlists (spec Authentication 2: "IP allowlist (IPs or CIDR ranges)"), checked
 * with Node's net.BlockList: IPv4 and IPv6 addresses and ranges; an IPv4 caller seen as an
 * IPv4-mapped IPv6 address (`::ffff:10.0.0.1`) matches IPv4 entries.
 */
import { BlockList, isIP } from 'node:net';

/** One allowlist entry as BlockList takes it, or null when `entry` is no IP or CIDR range. */
function parseEntry(entry: string): { address: string; prefix: number | null; family: 'ipv4' | 'ipv6' } | null {
  const [address, bits, extra] = entry.trim().split('/');
  if (address === undefined || extra !== undefined) return null;
  const version = isIP(address);
  if (version === 0) return null;
  const family = version === 4 ? 'ipv4' : 'ipv6';
  if (bits === undefined) return { address, prefix: null, family };
  if (!/^\d{1,3}$/.test(bits) || Number(bits) > (version === 4 ? 32 : 128)) return null;
  return { address, prefix: Number(bits), family };
}

/**
 * Checks allowlist entries; resolves to them trimmed. Throws Error naming every entry that is
 * not an IPv4/IPv6 address or CIDR range.
 */
export function checkAllowList(entries: readonly string[]): string[] {
  const bad = entries.filter((e) => parseEntry(e) === null);
  if (bad.length > 0) throw new Error(`not an IP address or CIDR range: ${bad.join(', ')}`);
  return entries.map((e) => e.trim());
}

/** True when `ip` (the caller's address) matches an entry of `entries`. */
export function ipAllowed(entries: readonly string[], ip: string): boolean {
  const list = new BlockList();
  for (const e of entries) {
    const p = parseEntry(e);
    if (!p) continue;
    if (p.prefix === null) list.addAddress(p.address, p.family);
    else list.addSubnet(p.address, p.prefix, p.family);
  }
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  const caller = mapped ? mapped[1]! : ip;
  const version = isIP(caller);
  if (version === 0) return false;
  return list.check(caller, version === 4 ? 'ipv4' : 'ipv6');
}
