/**
 * Sign-in limits count an IPv6 client by its /64 network and an IPv4 client (also IPv4-mapped)
 * by its address: every address inside one /64 gives the same group, different /64s differ.
 */
import t from 'tap';
import fc from 'fast-check';
import { addressGroup } from '../../api/web-app/address-group.js';

t.test('fixed cases', async (t) => {
  t.equal(addressGroup('203.0.113.7'), '203.0.113.7');
  t.equal(addressGroup('::ffff:203.0.113.7'), '203.0.113.7', 'IPv4-mapped');
  t.equal(addressGroup('2001:db8:1:2::1'), '2001:db8:1:2::/64');
  t.equal(addressGroup('2001:db8:1:2:ffff:ffff:ffff:ffff'), '2001:db8:1:2::/64', 'the same /64');
  t.equal(addressGroup('2001:db8::1'), '2001:db8:0:0::/64');
  t.equal(addressGroup('::1'), '0:0:0:0::/64');
  t.equal(addressGroup('fe80::1%eth0'), 'fe80:0:0:0::/64', 'a zone id is dropped');
  t.equal(addressGroup('test-client-7'), 'test-client-7', 'no address: as it is');
});

t.test('property: an address and any other in its /64 share a group; another /64 does not', async (t) => {
  const group = fc.integer({ min: 0, max: 0xffff });
  const hex = (g: number): string => g.toString(16);
  fc.assert(
    fc.property(
      fc.array(group, { minLength: 8, maxLength: 8 }),
      fc.array(group, { minLength: 4, maxLength: 4 }),
      fc.integer({ min: 0, max: 3 }),
      (full, host, changed) => {
        const a = full.map(hex).join(':');
        const b = [...full.slice(0, 4), ...host].map(hex).join(':');
        t.equal(addressGroup(a), addressGroup(b));
        const other = [...full];
        other[changed] = (other[changed]! + 1) & 0xffff;
        const c = other.map(hex).join(':');
        const mapped = (xs: number[]): boolean => xs.slice(0, 5).every((g) => g === 0) && xs[5] === 0xffff;
        if (!mapped(full) && !mapped(other)) t.not(addressGroup(a), addressGroup(c));
      },
    ),
    { numRuns: 300 },
  );
});
