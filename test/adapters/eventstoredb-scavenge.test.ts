/**
 * Starting an EventStoreDB scavenge (adapters/eventstoredb/scavenge.ts, service/scavenge.ts): the
 * client's own gRPC channel against a stand-in of the operations service
 * (test/helpers/eventstore-operations-stand-in.ts), so the request, the credentials and the
 * answer cross a real gRPC connection; the use case's refusal and checks with the port stubbed.
 */
import t, { type Test } from 'tap';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEventStoreScavenge } from '../../adapters/eventstoredb/scavenge.js';
import { scavengeEventStore, ScavengeRefused, type StartScavenge } from '../../service/scavenge.js';
import { startOperationsStandIn } from '../helpers/eventstore-operations-stand-in.js';

function hasOpenssl(): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** A self-signed certificate for IP 127.0.0.1 (openssl), its key and its file. */
function selfSigned(t: Test): { cert: Buffer; key: Buffer; certFile: string } {
  const dir = mkdtempSync(join(tmpdir(), 'packing-esdb-tls-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const certFile = join(dir, 'cert.pem');
  const keyFile = join(dir, 'key.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      keyFile,
      '-out',
      certFile,
    ],
    { stdio: 'ignore' },
  );
  return { cert: readFileSync(certFile), key: readFileSync(keyFile), certFile };
}

const tlsSkip = hasOpenssl()
  ? {}
  : { skip: 'openssl is not installed: cannot make the certificate of a secure stand-in' };

t.test('insecure node: the start request carries the settings; the id comes back', async (t) => {
  const server = await startOperationsStandIn();
  t.teardown(() => server.close());
  const started = await startEventStoreScavenge(server.url(), { threads: 3, startFromChunk: 7, deadlineMs: 10_000 });
  t.strictSame(started, { scavengeId: 'scv-1', result: 'started' });
  t.strictSame(
    server.calls,
    [{ threads: 3, startFromChunk: 7, authorization: undefined }],
    "no credentials over an insecure channel (the client's rule)",
  );
});

t.test(
  "secure node: the connection string's credentials are sent; another user is refused with the server's status",
  tlsSkip,
  async (t) => {
    const server = await startOperationsStandIn(selfSigned(t));
    t.teardown(() => server.close());
    const started = await startEventStoreScavenge(server.url(), { threads: 1, startFromChunk: 0, deadlineMs: 10_000 });
    t.strictSame(started, { scavengeId: 'scv-1', result: 'started' });
    t.strictSame(server.calls[0], {
      threads: 1,
      startFromChunk: 0,
      authorization: `Basic ${Buffer.from('admin:changeit').toString('base64')}`,
    });
    await t.rejects(
      startEventStoreScavenge(server.url('reader:secret'), { threads: 1, startFromChunk: 0, deadlineMs: 10_000 }),
      /did not start a scavenge: Access denied\. \(gRPC status 7\)/,
    );
  },
);

t.test('no server: an error (UNAVAILABLE) at once, not a wait', async (t) => {
  const server = await startOperationsStandIn();
  const url = server.url();
  await server.close();
  const started = Date.now();
  await t.rejects(
    startEventStoreScavenge(url, { threads: 1, startFromChunk: 0, deadlineMs: 10_000 }),
    /did not start a scavenge: .*\(gRPC status 14\)/,
  );
  t.ok(Date.now() - started < 10_000, `failed within the deadline (${Date.now() - started} ms)`);
});

t.test('the use case: refused on SQLite, settings checked before any connection, the url handed on', async (t) => {
  const seen: Parameters<StartScavenge>[] = [];
  const stub: StartScavenge = async (...args) => {
    seen.push(args);
    return { scavengeId: 'x', result: 'in_progress' };
  };
  await t.rejects(scavengeEventStore({ kind: 'sqlite' }, { threads: 1, startFromChunk: 0 }, stub), ScavengeRefused);
  const esdb = { kind: 'eventstoredb' as const, url: 'esdb://admin:changeit@db:2113', namespace: '' };
  await t.rejects(scavengeEventStore(esdb, { threads: 0, startFromChunk: 0 }, stub), RangeError);
  await t.rejects(scavengeEventStore(esdb, { threads: 9, startFromChunk: 0 }, stub), RangeError);
  await t.rejects(scavengeEventStore(esdb, { threads: 1, startFromChunk: -1 }, stub), RangeError);
  t.same(seen, [], 'nothing sent for a refused or bad command');
  t.strictSame(await scavengeEventStore(esdb, { threads: 2, startFromChunk: 5 }, stub), {
    scavengeId: 'x',
    result: 'in_progress',
  });
  t.strictSame(seen, [['esdb://admin:changeit@db:2113', { threads: 2, startFromChunk: 5, deadlineMs: 30_000 }]]);
});
