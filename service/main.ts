/**
 * `npm start`: the one entry point. With no variables set, the embedded profile (every role in
 * this process). Environment: PORT (default 8080), HOST (default 0.0.0.0), PACKING_DATA_DIR
 * (default ./data), SOLVER_THREADS (worker threads per job; default: cores), SOLVER_CONCURRENCY
 * (jobs computing at once per solver node; default 3), PUBLIC_BASE_URL (links in answers; default
 * from the request), LOG_LEVEL (default info), TLS_CERT_FILE + TLS_KEY_FILE (PEM files: serve
 * HTTPS; both or neither), QUEUE_TIMEOUT_SECONDS (default 1800), and the profile (service/profile.ts):
 * PACKING_ROLES, PACKING_EVENT_STORE + EVENTSTORE_URL, PACKING_READ_STORE + MONGODB_URL +
 * MONGODB_DATABASE, PACKING_BUS + NATS_URL, SOLVER_ACK_WAIT_SECONDS; PDF_SIGNING_KEY_FILE,
 * PACKING_HEARTBEAT_FILE; DEPENDENCY_GRACE_MS (how long an engine may be down before /health
 * answers 503 and the heartbeat stops; default 60000; read in service/server.ts). A bad setting stops the start with one line naming it (exit 1), and so
 * does a port that cannot be bound (service/listen-failure.ts).
 *
 * Stopping (README "How to stop the service"): SIGTERM or SIGINT closes the HTTP server, lets the
 * solver hand back its job, closes the stores and exits 0. `npm start` execs this process (no
 * shell in between), so npm passes both signals on; when started by npm this process also stops
 * when npm itself dies without passing a signal on (kill -9 of npm), so no orphan keeps serving.
 */
import { DataDirBusy } from '../adapters/sqlite/data-dir-lock.js';
import { listenFailure } from './listen-failure.js';
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

const port = Number(process.env['PORT'] ?? 8080);
const host = process.env['HOST'] ?? '0.0.0.0';
let service: RunningService;
try {
  service = await startService({
    ...(tls ? { tls } : {}),
    profile,
    port,
    host,
    dataDir: process.env['PACKING_DATA_DIR'] ?? './data',
    ...(process.env['SOLVER_THREADS'] ? { solverThreads: Number(process.env['SOLVER_THREADS']) } : {}),
    ...(process.env['SOLVER_CONCURRENCY']
      ? { solverConcurrency: wholeNumber('SOLVER_CONCURRENCY', process.env['SOLVER_CONCURRENCY']) }
      : {}),
    ...(process.env['PUBLIC_BASE_URL'] ? { publicBaseUrl: process.env['PUBLIC_BASE_URL'] } : {}),
    ...(process.env['QUEUE_TIMEOUT_SECONDS']
      ? { queueTimeoutMs: Number(process.env['QUEUE_TIMEOUT_SECONDS']) * 1000 }
      : {}),
    ...(process.env['PDF_SIGNING_KEY_FILE'] ? { signingKeyFile: process.env['PDF_SIGNING_KEY_FILE'] } : {}),
    ...(process.env['PACKING_HEARTBEAT_FILE'] ? { heartbeatFile: process.env['PACKING_HEARTBEAT_FILE'] } : {}),
  });
} catch (err) {
  if (err instanceof DataDirBusy || err instanceof ProfileError) refuse(err.message);
  const listen = listenFailure(err, port, host);
  if (listen !== undefined) refuse(listen);
  throw err;
}

let stopping = false;
function stop(reason: Record<string, unknown>): void {
  if (stopping) return;
  stopping = true;
  service.services.log.info(reason, 'stopping');
  void service.close().then(
    () => {
      service.services.log.info('stopped');
      process.exit(0);
    },
    (err: unknown) => {
      service.services.log.error({ err }, 'stopping failed');
      process.exit(1);
    },
  );
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => stop({ signal }));

/** How often a process started by npm checks that npm still lives, ms. */
const PARENT_CHECK_MS = 1000;
// npm passes SIGTERM/SIGINT on, but a kill -9 of npm would leave this process serving as an
// orphan. Only under npm: a supervisor (systemd, a container runtime) that starts node directly
// manages it itself, and pid 1 as parent means there is no parent to outlive.
const parentPid = process.ppid;
if (process.env['npm_lifecycle_event'] === 'start' && parentPid !== 1) {
  setInterval(() => {
    if (process.ppid !== parentPid) stop({ reason: 'npm, the parent process, has exited', parentPid });
  }, PARENT_CHECK_MS).unref();
}
