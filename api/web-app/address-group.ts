/**
 * The client address a sign-in limit counts (api/web-app/sign-in-limit.ts): an IPv4 address as it is
 * (also when written IPv4-mapped, `::ffff:203.0.113.7`), an IPv6 address by its /64 network
 * (`2001:db8:1:2::/64`), since one subscriber or host holds a whole /64 and could otherwise take a
 * fresh address for every guess. Anything that is no IP address (a test's label) as it is.
 */
import { isIPv4, isIPv6 } from 'node:net';

/** The eight 16-bit groups of an IPv6 address, as numbers (an embedded IPv4 tail read as two). */
function ipv6Groups(address: string): number[] {
  let text = address.split('%')[0]!;
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (tail) {
    const [a, b, c, d] = tail[1]!.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, -tail[1]!.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, rest] = text.split('::') as [string, string | undefined];
  const left = head === '' ? [] : head.split(':');
  const right = rest === undefined || rest === '' ? [] : rest.split(':');
  const zeros = rest === undefined ? [] : new Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...zeros, ...right].map((g) => parseInt(g, 16));
}

/** The address `address` counts as for sign-in limits (see the module comment). */
export function addressGroup(address: string): string {
  if (isIPv4(address)) return address;
  if (!isIPv6(address.split('%')[0]!)) return address;
  const groups = ipv6Groups(address);
  // IPv4-mapped (::ffff:a.b.c.d): the IPv4 address.
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}
