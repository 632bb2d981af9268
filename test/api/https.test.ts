/**
 * HTTPS (spec: JSON over HTTPS): with a certificate and key the service speaks HTTPS only.
 * A self-signed pair is made at test time with openssl (skipped, with the reason, without it).
 * Also: `npm start` refuses to start with only one of TLS_CERT_FILE / TLS_KEY_FILE, and serves
 * HTTPS with both.
 */
import t from 'tap';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { startService } from '../../service/server.js';
import { tlsFromEnvironment } from '../../service/tls.js';
import { nodeChild } from '../helpers/node-child.js';
import { serviceMainArgs, solverThreadModule } from '../helpers/compiled-service.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'packing-https-'));
const certFile = join(dir, 'cert.pem');
const keyFile = join(dir, 'key.pem');
t.teardown(() => rmSync(dir, { recursive: true, force: true }));

function hasOpenssl(): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** GET `path` over HTTPS trusting only `ca`: status and body. */
function getHttps(port: number, path: string, ca: Buffer): Promise<{ status: number; body: string }> {
  return new Promise((ok, fail) => {
    const req = httpsRequest({ host: '127.0.0.1', port, path, ca, servername: 'localhost' }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => ok({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', fail);
    req.end();
  });
}

/** GET `path` in plain HTTP: the status, or the error that ended it. */
function getPlain(port: number, path: string): Promise<{ status?: number; error?: string }> {
  return new Promise((ok) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, timeout: 5000 }, (res) => {
      res.resume();
      res.on('end', () => ok({ status: res.statusCode ?? 0 }));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (err) => ok({ error: err.message }));
    req.end();
  });
}

t.test('TLS_CERT_FILE and TLS_KEY_FILE: both, neither, or a clear refusal', async (t) => {
  t.equal(tlsFromEnvironment({}), undefined, 'neither: plain HTTP');
  t.equal(tlsFromEnvironment({ TLS_CERT_FILE: '', TLS_KEY_FILE: '' }), undefined, 'empty counts as unset');
  t.throws(() => tlsFromEnvironment({ TLS_CERT_FILE: certFile }), /TLS_KEY_FILE is not set/);
  t.throws(() => tlsFromEnvironment({ TLS_KEY_FILE: keyFile }), /TLS_CERT_FILE is not set/);
  t.throws(
    () => tlsFromEnvironment({ TLS_CERT_FILE: join(dir, 'missing.pem'), TLS_KEY_FILE: keyFile }),
    /cannot read TLS_CERT_FILE=/,
  );

  const child = spawn(...nodeChild(serviceMainArgs()), {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      PACKING_DATA_DIR: join(dir, 'refused'),
      TLS_CERT_FILE: certFile,
      TLS_KEY_FILE: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const code = await new Promise<number | null>((ok) => child.once('exit', (c) => ok(c)));
  t.equal(code, 1, 'npm start exits 1');
  t.match(stderr, /refusing to start: HTTPS needs both TLS_CERT_FILE and TLS_KEY_FILE; TLS_KEY_FILE is not set/);
});

t.test(
  'with a certificate the service answers HTTPS and refuses plain HTTP',
  { skip: hasOpenssl() ? false : 'openssl is not installed: cannot make a self-signed certificate' },
  async (t) => {
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
        'subjectAltName=DNS:localhost,IP:127.0.0.1',
        '-keyout',
        keyFile,
        '-out',
        certFile,
      ],
      { stdio: 'ignore' },
    );
    const cert = readFileSync(certFile);
    const lines: string[] = [];
    const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
    const service = await startService({
      solverThreadModule: solverThreadModule(),
      port: 0,
      host: '127.0.0.1',
      dataDir: join(dir, 'data'),
      solverThreads: 1,
      log,
      tls: { cert, key: readFileSync(keyFile) },
    });
    try {
      t.match(service.url, /^https:\/\/127\.0\.0\.1:\d+$/);
      const listening = lines.map((l) => JSON.parse(l)).find((l) => l.msg === 'listening');
      t.equal(listening?.scheme, 'https', 'the listening line says the scheme');
      t.equal(listening?.url, service.url);
      const port = Number(new URL(service.url).port);

      const health = await getHttps(port, '/health', cert);
      t.equal(health.status, 200);
      t.equal(JSON.parse(health.body).status, 'ok');

      const untrusted = await new Promise<string>((ok) => {
        const req = httpsRequest({ host: '127.0.0.1', port, path: '/health' }, () => ok('answered'));
        req.on('error', (err) => ok((err as NodeJS.ErrnoException).code ?? err.message));
        req.end();
      });
      t.equal(untrusted, 'DEPTH_ZERO_SELF_SIGNED_CERT', 'a client that does not trust the certificate refuses it');

      const plain = await getPlain(port, '/health');
      t.not(plain.status, 200, `plain HTTP is not served (${JSON.stringify(plain)})`);
    } finally {
      await service.close();
    }
  },
);

t.test(
  'npm start serves HTTPS with both variables',
  { skip: hasOpenssl() ? false : 'openssl is not installed' },
  async (t) => {
    const child = spawn(...nodeChild(serviceMainArgs()), {
      cwd: ROOT,
      env: {
        ...process.env,
        PORT: '0',
        HOST: '127.0.0.1',
        PACKING_DATA_DIR: join(dir, 'main'),
        SOLVER_THREADS: '1',
        LOG_LEVEL: 'info',
        TLS_CERT_FILE: certFile,
        TLS_KEY_FILE: keyFile,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<void>((ok) => child.once('exit', () => ok()));
    try {
      const listening = await new Promise<{ url: string; scheme: string; port: number }>((ok, fail) => {
        const timer = setTimeout(() => fail(new Error('no listening line in 60 s')), 60_000);
        void exited.then(() => fail(new Error('exited before listening')));
        createInterface({ input: child.stdout }).on('line', (line) => {
          if (!line.startsWith('{')) return;
          const entry = JSON.parse(line) as { msg?: string; url: string; scheme: string; port: number };
          if (entry.msg === 'listening') {
            clearTimeout(timer);
            ok(entry);
          }
        });
      });
      t.equal(listening.scheme, 'https');
      t.match(listening.url, /^https:/);
      const health = await getHttps(listening.port, '/health', readFileSync(certFile));
      t.equal(health.status, 200);
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  },
);
