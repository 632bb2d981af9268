/**
 * The service's configuration (service/config.ts): every variable read into one checked
 * ServiceConfig, the settings a caller leaves out filled from the environment, and the rule that
 * no other module of the service reads `process.env`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import t from 'tap';
import { DEFAULT_DEPENDENCY_GRACE_MS } from '../../adapters/health/dependency-health.js';
import { IDEMPOTENCY_TIMINGS } from '../../domain/job/idempotency-claim.js';
import { DEFAULT_RETRY_POLICY } from '../../domain/webhook/retry-policy.js';
import {
  dataDirFromEnvironment,
  serviceAddressFromEnvironment,
  serviceConfigFromEnvironment,
  settingsOf,
  startedByNpmStart,
} from '../../service/config.js';
import { ProfileError } from '../../service/profile.js';
import { DEFAULT_WEBHOOK_POLL_MS } from '../../service/service-config.js';

t.test('no variables: the embedded profile on port 8080 of every interface, ./data, defaults', async (t) => {
  const config = serviceConfigFromEnvironment({});
  t.equal(config.port, 8080);
  t.equal(config.host, '0.0.0.0');
  t.equal(config.dataDir, './data');
  t.same([...config.profile!.roles].sort(), ['api', 'projector', 'scheduler', 'solver']);
  t.equal(config.tls, undefined, 'plain HTTP');
  t.equal(config.solverThreads, undefined);
  t.equal(config.solverConcurrency, undefined);
  t.equal(config.queueTimeoutMs, undefined);
  t.equal(config.trustProxy, '', 'no trusted proxy');
  t.equal(config.metricsToken, undefined);
  t.equal(config.logLevel, 'info');
  t.equal(config.dependencyGraceMs, DEFAULT_DEPENDENCY_GRACE_MS);
  t.same(config.webhooks, {
    allowPrivateTargets: false,
    retryBaseMs: DEFAULT_RETRY_POLICY.baseMs,
    pollMs: DEFAULT_WEBHOOK_POLL_MS,
  });
  t.same(config.idempotency, {
    pendingStaleAfterMs: IDEMPOTENCY_TIMINGS.pendingStaleAfterMs,
    pendingWaitMs: IDEMPOTENCY_TIMINGS.pendingWaitMs,
  });
  t.same(config.signInDelays, { baseMs: 1000, maxMs: 10_000 });
});

t.test('every variable lands in its field', async (t) => {
  const config = serviceConfigFromEnvironment({
    PORT: '9090',
    HOST: '127.0.0.1',
    PACKING_DATA_DIR: '/srv/packing',
    SOLVER_THREADS: '2',
    SOLVER_CONCURRENCY: '4',
    PUBLIC_BASE_URL: 'https://packing.example.com',
    QUEUE_TIMEOUT_SECONDS: '60',
    PDF_SIGNING_KEY_FILE: '/run/secrets/signing-key',
    PACKING_HEARTBEAT_FILE: '/tmp/heartbeat',
    TRUST_PROXY: 'loopback, 10.0.0.0/8',
    METRICS_TOKEN: 'scrape-me',
    LOG_LEVEL: 'warn',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    WEBHOOK_RETRY_BASE_MS: '100',
    WEBHOOK_POLL_MS: '50',
    IDEMPOTENCY_PENDING_STALE_MS: '2000',
    IDEMPOTENCY_PENDING_WAIT_MS: '500',
    SIGN_IN_DELAY_BASE_MS: '10',
    SIGN_IN_DELAY_MAX_MS: '40',
    DEPENDENCY_GRACE_MS: '5000',
    PACKING_ROLES: 'api',
    PACKING_BUS: 'nats',
    NATS_URL: 'nats://nats:4222',
  });
  t.same(
    {
      port: config.port,
      host: config.host,
      dataDir: config.dataDir,
      solverThreads: config.solverThreads,
      solverConcurrency: config.solverConcurrency,
      publicBaseUrl: config.publicBaseUrl,
      queueTimeoutMs: config.queueTimeoutMs,
      signingKeyFile: config.signingKeyFile,
      heartbeatFile: config.heartbeatFile,
      trustProxy: config.trustProxy,
      metricsToken: config.metricsToken,
      logLevel: config.logLevel,
      webhooks: config.webhooks,
      idempotency: config.idempotency,
      signInDelays: config.signInDelays,
      dependencyGraceMs: config.dependencyGraceMs,
      roles: [...config.profile!.roles],
      bus: config.profile!.bus.kind,
    },
    {
      port: 9090,
      host: '127.0.0.1',
      dataDir: '/srv/packing',
      solverThreads: 2,
      solverConcurrency: 4,
      publicBaseUrl: 'https://packing.example.com',
      queueTimeoutMs: 60_000,
      signingKeyFile: '/run/secrets/signing-key',
      heartbeatFile: '/tmp/heartbeat',
      trustProxy: 'loopback,10.0.0.0/8',
      metricsToken: 'scrape-me',
      logLevel: 'warn',
      webhooks: { allowPrivateTargets: true, retryBaseMs: 100, pollMs: 50 },
      idempotency: { pendingStaleAfterMs: 2000, pendingWaitMs: 500 },
      signInDelays: { baseMs: 10, maxMs: 40 },
      dependencyGraceMs: 5000,
      roles: ['api'],
      bus: 'nats',
    },
  );
  t.same(settingsOf(config, {}).trustProxy, ['loopback', '10.0.0.0/8'], 'the start parses the same proxies again');
});

t.test('each bad variable is refused with the message the start prints', async (t) => {
  const cases: [Record<string, string>, string, string][] = [
    [{ SOLVER_CONCURRENCY: '0' }, 'SOLVER_CONCURRENCY', 'SOLVER_CONCURRENCY must be a whole number ≥ 1, got "0"'],
    [{ PORT: 'http' }, 'PORT', 'PORT must be a whole number from 0 to 65535, got "http"'],
    [{ PORT: '70000' }, 'PORT', 'PORT must be a whole number from 0 to 65535, got "70000"'],
    [{ SOLVER_THREADS: 'two' }, 'SOLVER_THREADS', 'SOLVER_THREADS must be a whole number ≥ 1, got "two"'],
    [
      { QUEUE_TIMEOUT_SECONDS: 'abc' },
      'QUEUE_TIMEOUT_SECONDS',
      'QUEUE_TIMEOUT_SECONDS must be a number of seconds > 0, got "abc"',
    ],
    [
      { DEPENDENCY_GRACE_MS: 'a minute' },
      'DEPENDENCY_GRACE_MS',
      'DEPENDENCY_GRACE_MS must be a whole number of milliseconds ≥ 1, got "a minute"',
    ],
    [
      { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'yes' },
      'WEBHOOK_ALLOW_PRIVATE_TARGETS',
      'WEBHOOK_ALLOW_PRIVATE_TARGETS must be true or false, got "yes"',
    ],
    [
      { SIGN_IN_DELAY_BASE_MS: '500', SIGN_IN_DELAY_MAX_MS: '100' },
      'SIGN_IN_DELAY_MAX_MS',
      'SIGN_IN_DELAY_MAX_MS (100) must be at least SIGN_IN_DELAY_BASE_MS (500)',
    ],
    [
      { TRUST_PROXY: 'everyone' },
      'TRUST_PROXY',
      'TRUST_PROXY names "everyone"; use a comma list of IP addresses, CIDR ranges or loopback, linklocal, uniquelocal',
    ],
  ];
  for (const [env, variable, message] of cases) {
    t.throws(() => serviceConfigFromEnvironment(env), { name: 'ProfileError', variable, message }, variable);
  }
  t.throws(
    () => serviceConfigFromEnvironment({ TLS_CERT_FILE: '/tmp/cert.pem' }),
    {
      message:
        'HTTPS needs both TLS_CERT_FILE and TLS_KEY_FILE; TLS_KEY_FILE is not set (set both for HTTPS, neither for plain HTTP)',
    },
    'the TLS files come first',
  );
  t.throws(
    () => serviceConfigFromEnvironment({ PACKING_ROLES: 'api', SOLVER_CONCURRENCY: '0' }),
    ProfileError,
    'the profile before the solver settings',
  );
});

t.test("a caller's settings win over the environment; the ones it leaves out come from it", async (t) => {
  const env = { WEBHOOK_POLL_MS: '75', METRICS_TOKEN: 'from-env', DEPENDENCY_GRACE_MS: '9000' };
  const settings = settingsOf({ port: 0, host: '127.0.0.1', dataDir: '/x', metricsToken: 'given' }, env);
  t.equal(settings.metricsToken, 'given');
  t.equal(settings.webhooks.pollMs, 75);
  t.equal(settings.dependencyGraceMs, 9000);
  t.equal(settingsOf({ port: 0, host: '', dataDir: '', dependencyGraceMs: 1 }, env).dependencyGraceMs, 1);
});

t.test('the operator tools read the same variables', async (t) => {
  t.equal(dataDirFromEnvironment({}), './data');
  t.equal(dataDirFromEnvironment({ PACKING_DATA_DIR: '/srv/d' }), '/srv/d');
  t.same(serviceAddressFromEnvironment({}), { publicBaseUrl: undefined, port: '8080' });
  t.same(serviceAddressFromEnvironment({ PUBLIC_BASE_URL: 'https://p.example', PORT: '81' }), {
    publicBaseUrl: 'https://p.example',
    port: '81',
  });
  t.equal(startedByNpmStart({ npm_lifecycle_event: 'start' }), true);
  t.equal(startedByNpmStart({ npm_lifecycle_event: 'test' }), false);
});

t.test('process.env is read in service/config.ts alone among the service sources', async (t) => {
  const root = join(import.meta.dirname, '..', '..');
  const readers: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts') && readFileSync(path, 'utf8').includes('process.env'))
        readers.push(relative(root, path));
    }
  };
  for (const top of ['service', 'api', 'application', 'adapters', 'projections', 'domain', 'solver', 'pdf', 'display'])
    walk(join(root, top));
  t.same(readers, ['service/config.ts']);
});
