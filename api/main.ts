/**
 * `npm start`: the one entry point. With no variables set, the embedded profile (every role in
 * this process). Environment: PORT (default 8080), HOST (default 0.0.0.0), PACKING_DATA_DIR
 * (default ./data), SOLVER_THREADS (worker threads per job; default: cores), SOLVER_CONCURRENCY
 * (jobs computing at once per solver node; default 3), PUBLIC_BASE_URL (links in answers; default
 * from the request), LOG_LEVEL (default info), TLS_CERT_FILE + TLS_KEY_FILE (PEM files: serve
 * HTTPS; both or neither), QUEUE_TIMEOUT_SECONDS (default 1800), and the profile (api/profile.ts):
 * PACKING_ROLES, PACKING_EVENT_STORE + EVENTSTORE_URL, PACKING_READ_STORE + MONGODB_URL +
 * MONGODB_DATABASE, PACKING_BUS + NATS_URL, SOLVER_ACK_WAIT_SECONDS; PDF_SIGNING_KEY_FILE,
 * PACKING_HEARTBEAT_FILE. A bad setting stops the start with one line naming it (exit 1).
 */
import { DataDirBusy } from '../adapters/sqlite/data-dir-lock.js';
import { ProfileError, profileFromEnvironment, type Profile } from './profile.js';
import { startService, type RunningService } from './server.js';
import { tlsFromEnvironment } from './tls.js';

function refuse(message: string): never {
  process.stderr.write(`refusing to start: ${message}\n`);
  process.exit(1);
}

/** A setting that must be a whole number ≥ 1; refuses to start otherwise. */
function wholeNumber(name: string, value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) refuse(`${name} must be a whole number ≥ 1, got "${value}"`);
  return n;
}

let tls: ReturnType<typeof tlsFromEnvironment>;
let profile: Profile;
try {
  tls = tlsFromEnvironment(process.env);
  profile = profileFromEnvironment(process.env);
} catch (err) {
  refuse((err as Error).message);
}

let service: RunningService;
try {
  service = await startService({
    ...(tls ? { tls } : {}),
    profile,
    port: Number(process.env['PORT'] ?? 8080),
    host: process.env['HOST'] ?? '0.0.0.0',
    dataDir: process.env['PACKING_DATA_DIR'] ?? './data',
    ...(process.env['SOLVER_THREADS'] ? { solverThreads: Number(process.env['SOLVER_THREADS']) } : {}),
    ...(process.env['SOLVER_CONCURRENCY'] ? { solverConcurrency: wholeNumber('SOLVER_CONCURRENCY', process.env['SOLVER_CONCURRENCY']) } : {}),
    ...(process.env['PUBLIC_BASE_URL'] ? { publicBaseUrl: process.env['PUBLIC_BASE_URL'] } : {}),
    ...(process.env['QUEUE_TIMEOUT_SECONDS'] ? { queueTimeoutMs: Number(process.env['QUEUE_TIMEOUT_SECONDS']) * 1000 } : {}),
    ...(process.env['PDF_SIGNING_KEY_FILE'] ? { signingKeyFile: process.env['PDF_SIGNING_KEY_FILE'] } : {}),
    ...(process.env['PACKING_HEARTBEAT_FILE'] ? { heartbeatFile: process.env['PACKING_HEARTBEAT_FILE'] } : {}),
  });
} catch (err) {
  if (err instanceof DataDirBusy || err instanceof ProfileError) refuse(err.message);
  throw err;
}

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    service.services.log.info({ signal }, 'stopping');
    void service.close().then(() => {
      service.services.log.info('stopped');
      process.exit(0);
    });
  });
}
