/**
 * Which IP addresses a webhook may not reach unless WEBHOOK_ALLOW_PRIVATE_TARGETS=true: every
 * address outside ipaddr.js's `unicast` range (its special-purpose tables from the IANA
 * registries: private, loopback, link-local, shared (CGNAT), multicast, reserved, documentation,
 * benchmarking, unspecified, …), and every IPv6 form that embeds an internal IPv4 address, since a
 * NAT64, SIIT, 6to4 or Teredo translator on the way would deliver to that IPv4 address:
 *
 * - IPv4-compatible `::a.b.c.d` (`::/96`, deprecated) and IPv4-mapped `::ffff:a.b.c.d`;
 * - SIIT `::ffff:0:a.b.c.d` (RFC 6145) and NAT64 `64:ff9b::a.b.c.d` (RFC 6052);
 * - 6to4 `2002:AABB:CCDD::/48` (RFC 3056), the IPv4 address in bits 16–47;
 * - Teredo `2001:0::/32` (RFC 4380): the server's IPv4 in bits 32–63, the client's, inverted, in
 *   bits 96–127; either internal makes the address internal.
 *
 * The local-use NAT64 prefix `64:ff9b:1::/48` (RFC 8215) is internal as a whole: where its IPv4
 * address sits depends on a prefix length only the local network knows.
 */
import ipaddr from 'ipaddr.js';

/** True when the IPv4 address is not public unicast. */
function internalV4(address: ipaddr.IPv4): boolean {
  return address.range() !== 'unicast';
}

/** The IPv4 address in 16-bit words `hi` and `lo` of `address`, inverted when `invert`. */
function v4At(address: ipaddr.IPv6, hi: number, lo: number, invert = false): ipaddr.IPv4 {
  const mask = invert ? 0xffff : 0;
  const a = address.parts[hi]! ^ mask;
  const b = address.parts[lo]! ^ mask;
  return new ipaddr.IPv4([a >> 8, a & 255, b >> 8, b & 255]);
}

/** The IPv4 addresses an IPv6 address embeds (see the module comment); [] when it embeds none. */
function embeddedV4(address: ipaddr.IPv6): ipaddr.IPv4[] {
  const p = address.parts;
  switch (address.range()) {
    case 'ipv4Mapped':
    case 'rfc6145':
      return [v4At(address, 6, 7)];
    case 'rfc6052':
      // 64:ff9b::/96 embeds in the last 32 bits; 64:ff9b:1::/48 is refused as a whole (module comment).
      return p[2] === 0 ? [v4At(address, 6, 7)] : [new ipaddr.IPv4([127, 0, 0, 1])];
    case '6to4':
      return [v4At(address, 1, 2)];
    case 'teredo':
      return [v4At(address, 2, 3), v4At(address, 6, 7, true)];
    case 'unicast':
      // IPv4-compatible ::a.b.c.d (its range tables file it under unicast).
      return p.slice(0, 6).every((w) => w === 0) ? [v4At(address, 6, 7)] : [];
    default:
      return [];
  }
}

/**
 * True when `address` (an IPv4 or IPv6 literal, without brackets; an IPv6 zone index counts as
 * link-local) may not be a webhook's target; a string that is no IP address is internal too.
 */
export function isInternalAddress(address: string): boolean {
  if (address.includes('%')) return true; // a zone index: link-local by definition
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address);
  } catch {
    return true;
  }
  if (parsed.kind() === 'ipv4') return internalV4(parsed as ipaddr.IPv4);
  const v6 = parsed as ipaddr.IPv6;
  const embedded = embeddedV4(v6);
  if (embedded.length > 0) return embedded.some(internalV4);
  return v6.range() !== 'unicast';
}
