/**
 * The HTTP webhook sender (adapters/http/webhook-sender.ts): it checks the target again at
 * delivery time and connects to the address it checked (a name that resolves to loopback at
 * delivery is refused by default: DNS rebinding after registration does not pass), reports the
 * answer's status, and reports a refused connection as an error without throwing.
 */
import t from 'tap';
import { httpWebhookSender } from '../../../adapters/http/webhook-sender.js';
import type { Resolve } from '../../../adapters/http/webhook-target.js';
import { startWebhookReceiver } from '../../helpers/webhook-receiver.js';

const toLoopback: Resolve = async (host) => {
  if (host === 'rebound.example.com') return [{ address: '127.0.0.1', family: 4 }];
  if (host === 'six-to-four.example.com') return [{ address: '2002:7f00:1::1', family: 6 }];
  throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
};

t.test('a name resolving to loopback at delivery time is refused by default; nothing is sent', async (t) => {
  const receiver = await startWebhookReceiver();
  t.teardown(() => receiver.close());
  const port = new URL(receiver.url).port;
  const sender = httpWebhookSender({ allowPrivate: false, resolve: toLoopback });
  const out = await sender.send({
    url: `http://rebound.example.com:${port}/hooks`,
    body: '{}',
    headers: { 'content-type': 'application/json' },
  });
  t.equal(out.statusCode, null);
  t.match(out.error, /^private_target/);
  const direct = await sender.send({ url: receiver.url, body: '{}', headers: {} });
  t.match(direct.error, /^private_target/, '127.0.0.1 itself too');
  t.equal(receiver.received.length, 0);
});

t.test('a name resolving at delivery to an IPv6 form of an internal IPv4 address is refused', async (t) => {
  const receiver = await startWebhookReceiver();
  t.teardown(() => receiver.close());
  const sender = httpWebhookSender({ allowPrivate: false, resolve: toLoopback });
  const out = await sender.send({ url: 'http://six-to-four.example.com/hooks', body: '{}', headers: {} });
  t.equal(out.statusCode, null);
  t.match(out.error, /^private_target: .*2002:7f00:1::1/);
  t.equal(receiver.received.length, 0);
});

t.test('allowed: the connection goes to the checked address, the status is reported', async (t) => {
  const receiver = await startWebhookReceiver();
  t.teardown(() => receiver.close());
  receiver.answer = () => 503;
  const port = new URL(receiver.url).port;
  const sender = httpWebhookSender({ allowPrivate: true, resolve: toLoopback });
  const out = await sender.send({
    url: `http://rebound.example.com:${port}/hooks`,
    body: '{"a":1}',
    headers: { 'content-type': 'application/json', 'packing-event-id': 'evt_1' },
  });
  t.same(out, { statusCode: 503, error: null });
  t.equal(receiver.received.length, 1);
  t.equal(receiver.received[0]!.body, '{"a":1}');
  t.equal(
    receiver.received[0]!.headers['host'],
    `rebound.example.com:${port}`,
    'the Host header keeps the URL host name',
  );
  t.equal(receiver.received[0]!.headers['packing-event-id'], 'evt_1');
});

t.test('no answer: the error, not a throw', async (t) => {
  const receiver = await startWebhookReceiver();
  const url = receiver.url;
  await receiver.close();
  const out = await httpWebhookSender({ allowPrivate: true }).send({ url, body: '{}', headers: {} });
  t.equal(out.statusCode, null);
  t.match(out.error, /ECONNREFUSED/);
});
