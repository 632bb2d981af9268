import t from 'tap';
import { checkAllowList, ipAllowed } from '../../application/ip-allowlist.js';

t.test('addresses and CIDR ranges, IPv4 and IPv6, IPv4-mapped callers', async (t) => {
  const list = ['10.1.0.0/16', '192.0.2.7', '2001:db8::/32'];
  t.same(
    [
      '10.1.200.3',
      '10.2.0.1',
      '192.0.2.7',
      '192.0.2.8',
      '::ffff:10.1.0.9',
      '2001:db8:1::5',
      '2001:db9::1',
      'unknown',
    ].map((ip) => ipAllowed(list, ip)),
    [true, false, true, false, true, true, false, false],
  );
});

t.test('checkAllowList names every entry that is no address or range', async (t) => {
  t.same(checkAllowList([' 10.0.0.0/8 ', '::1']), ['10.0.0.0/8', '::1']);
  t.throws(
    () => checkAllowList(['10.0.0.0/33', 'example.com', '10.0.0.1', '1.2.3.4/8/1']),
    /not an IP address or CIDR range: 10\.0\.0\.0\/33, example\.com, 1\.2\.3\.4\/8\/1$/,
  );
});
