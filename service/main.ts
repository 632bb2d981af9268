/**
 * `npm start`: the one entry point. With no variables set, the embedded profile (every role in
 * this process). Every setting comes from the environment, read once by service/config.ts (the
 * list of variables is there). A bad setting stops the start with one line naming it (exit 1),
 * and so does a port that cannot be bound (service/listen-failure.ts).
 *
 * Stopping (docs/operations.md, "How to stop the service"): SIGTERM or SIGINT closes the HTTP server, lets the
 * solver hand back its job, closes the stores and exits 0. `npm start` execs this process (no
 * shell in between), so npm passes both signals on; when started by npm this process also stops
 * when npm itself dies without passing a signal on (kill -9 of npm), so no orphan keeps serving.
 */
import { DataDirBusy } from '../adapters/sqlite/data-dir-lock.js';
import { serviceConfigFromEnvironment, startedByNpmStart } from './config.js';
import { listenFailure } from './listen-failure.js';
import { ProfileError } from './profile.js';
import { startService, type RunningService } from './server.js';
import type { ServiceConfig } from './service-config.js';

function refuse(message: string): never {
  process.stderr.write(`refusing to start: ${message}\n`);
  process.exit(1);
}

let config: ServiceConfig;
try {
  config = serviceConfigFromEnvironment();
} catch (err) {
  refuse((err as Error).message);
}

let service: RunningService;
try {
  service = await startService(config);
} catch (err) {
  if (err instanceof DataDirBusy || err instanceof ProfileError) refuse(err.message);
  const listen = listenFailure(err, config.port, config.host);
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
if (startedByNpmStart() && parentPid !== 1) {
  setInterval(() => {
    if (process.ppid !== parentPid) stop({ reason: 'npm, the parent process, has exited', parentPid });
  }, PARENT_CHECK_MS).unref();
}
