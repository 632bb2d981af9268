/**
 * The webhook target check (adapters/http/webhook-target.ts, internal-address.ts): internal
 * addresses (127.0.0.1, 10.x, 169.254.x, ::1, IPv4-mapped, a name resolving to loopback) are
 * refused unless private targets are allowed; public ones pass; bad schemes and hosts are named.
 * Every IPv6 form that embeds an internal IPv4 address (IPv4-compatible, mapped, SIIT, NAT64,
 * 6to4, Teredo) is refused, as registration sees it after URL parsing.
 */
import t from 'tap';
import { isInternalAddress } from '../../../adapters/http/internal-address.js';
import { checkWebhookTarget, type Resolve } from '../../../adapters/http/webhook-target.js';

t.test('internal ranges', async (t) => {
  for (const a of [
    '127.0.0.1',
    '127.8.9.10',
    '10.0.0.1',
    '10.255.255.255',
    '172.16.0.1',
    '172.31.255.254',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fd12:3456::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.1.2.3',
    '64:ff9b::a9fe:a9fe',
  ]) {
    t.ok(isInternalAddress(a), `${a} is internal`);
  }
  for (const a of ['8.8.8.8', '1.1.1.1', '172.32.0.1', '192.169.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8']) {
    t.notOk(isInternalAddress(a), `${a} is public`);
  }
  t.ok(isInternalAddress('not-an-ip'), 'a non-address is refused too');
});

t.test('IPv6 forms that embed an IPv4 address are judged by that address', async (t) => {
  const internal = {
    '::127.0.0.1': 'IPv4-compatible loopback',
    '::7f00:1': 'IPv4-compatible loopback, as the URL parser writes it',
    '::a9fe:a9fe': 'IPv4-compatible link-local (cloud metadata)',
    '::ffff:0:7f00:1': 'SIIT (RFC 6145) loopback',
    '::ffff:0:10.0.0.1': 'SIIT private',
    '64:ff9b::10.0.0.1': 'NAT64 private',
    '64:ff9b:1::1': 'local-use NAT64 (RFC 8215), refused as a whole',
    '64:ff9b:1:ffff::808:808': 'local-use NAT64 even with a public-looking tail',
    '2002:7f00:1::1': '6to4 of 127.0.0.1',
    '2002:c0a8:101::1': '6to4 of 192.168.1.1',
    '2001:0:4136:e378:8000:63bf:80ff:fffe': 'Teredo whose client (inverted) is 127.0.0.1',
    '2001:0:a00:1::1': 'Teredo whose server is 10.0.0.1',
    '3fff::1': 'documentation (RFC 9637)',
    '2001:db8::1': 'documentation',
    '5f00::1': 'segment routing SIDs',
    'fe80::1%eth0': 'link-local with a zone index',
  };
  for (const [address, why] of Object.entries(internal)) t.ok(isInternalAddress(address), `${address}: ${why}`);
  const public_ = {
    '::808:808': 'IPv4-compatible 8.8.8.8',
    '::ffff:0:808:808': 'SIIT of 8.8.8.8',
    '64:ff9b::8.8.8.8': 'NAT64 of 8.8.8.8',
    '2002:808:808::1': '6to4 of 8.8.8.8',
    '2001:0:4136:e378:8000:63bf:f7f7:f7f7': 'Teredo, server 65.54.227.120, client 8.8.8.8',
  };
  for (const [address, why] of Object.entries(public_)) t.notOk(isInternalAddress(address), `${address}: ${why}`);

  for (const url of ['http://[::127.0.0.1]:18601/', 'http://[::ffff:0:7f00:1]/', 'http://[2002:7f00:1::1]/']) {
    t.match(
      await checkWebhookTarget(url, false, dns),
      { ok: false, code: 'private_target' },
      `${url} is refused at registration`,
    );
  }
});

const fakeDns =
  (table: Record<string, string[]>): Resolve =>
  async (host) => {
    const found = table[host];
    if (!found) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
const dns = fakeDns({
  'hooks.example.com': ['93.184.216.34'],
  'sneaky.example.com': ['93.184.216.34', '127.0.0.1'],
  'local.example.com': ['::1'],
});

t.test('registration and delivery refuse internal targets by default', async (t) => {
  for (const url of [
    'http://127.0.0.1:8080/hook',
    'https://10.1.2.3/',
    'http://169.254.169.254/latest/meta-data',
    'http://[::1]:9000/',
    'https://local.example.com/x',
    'https://sneaky.example.com/x',
  ]) {
    const got = await checkWebhookTarget(url, false, dns);
    t.match(got, { ok: false, code: 'private_target' }, url);
  }
  t.match(
    await checkWebhookTarget('http://localhost:9/x', false),
    { ok: false, code: 'private_target' },
    'localhost through the system resolver',
  );
});

t.test('allowed with WEBHOOK_ALLOW_PRIVATE_TARGETS; public targets pass and name the checked address', async (t) => {
  t.match(await checkWebhookTarget('http://127.0.0.1:8080/hook', true, dns), {
    ok: true,
    address: '127.0.0.1',
    family: 4,
  });
  t.match(await checkWebhookTarget('http://[::1]:9000/', true, dns), { ok: true, address: '::1', family: 6 });
  t.match(await checkWebhookTarget('https://hooks.example.com/x', false, dns), { ok: true, address: '93.184.216.34' });
});

t.test('bad URLs', async (t) => {
  t.match(await checkWebhookTarget('not a url', false, dns), { ok: false, code: 'invalid_url' });
  t.match(await checkWebhookTarget('ftp://hooks.example.com/x', false, dns), { ok: false, code: 'unsupported_scheme' });
  t.match(await checkWebhookTarget('https://nowhere.example.com/x', false, dns), {
    ok: false,
    code: 'unresolvable_host',
  });
});
