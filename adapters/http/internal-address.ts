/**
 * Which IP addresses a webhook may not reach unless WEBHOOK_ALLOW_PRIVATE_TARGETS=true:
 * private, loopback, link-local, shared (CGNAT), multicast, reserved, documentation and
 * unspecified ranges of IPv4 and IPv6, and IPv6 addresses that embed such an IPv4 address
 * (IPv4-mapped `::ffff:a.b.c.d`, NAT64 `64:ff9b::/96`).
 */
import { BlockList, isIP } from 'node:net';

const INTERNAL_V4: readonly [string, number][] = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // shared address space (CGNAT)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata services)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
];

const INTERNAL_V6: readonly [string, number][] = [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
];

const internal = new BlockList();
for (const [net, prefix] of INTERNAL_V4) internal.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of INTERNAL_V6) internal.addSubnet(net, prefix, 'ipv6');

/** The IPv4 address an IPv6 address embeds (IPv4-mapped or NAT64), else undefined. */
function embeddedV4(address: string): string | undefined {
  const m = /^(?:::ffff:|64:ff9b::)(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/i.exec(address);
  if (!m) return undefined;
  if (m[1]) return m[1];
  const hi = parseInt(m[2]!, 16);
  const lo = parseInt(m[3]!, 16);
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/** True when `address` (an IPv4 or IPv6 literal, without brackets) is in an internal range; a non-IP is internal too. */
export function isInternalAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return internal.check(address, 'ipv4');
  if (family === 6) {
    const v4 = embeddedV4(address);
    if (v4 !== undefined) return isInternalAddress(v4);
    return internal.check(address, 'ipv6');
  }
  return true;
}
