/**
 * `npm start`: the service on the embedded default. Environment: PORT (default 8080),
 * HOST (default 0.0.0.0), PACKING_DATA_DIR (default ./data), SOLVER_THREADS (default: cores),
 * PUBLIC_BASE_URL (links in answers; default from the request), LOG_LEVEL (default info),
 * TLS_CERT_FILE + TLS_KEY_FILE (PEM files: serve HTTPS; both or neither, else exit 1),
 * QUEUE_TIMEOUT_SECONDS (default 1800: a job waiting longer for a compute slot fails queue_timeout).
 */
import { startService } from './server.js';
import { tlsFromEnvironment } from './tls.js';

let tls: ReturnType<typeof tlsFromEnvironment>;
try {
  tls = tlsFromEnvironment(process.env);
} catch (err) {
  process.stderr.write(`refusing to start: ${(err as Error).message}\n`);
  process.exit(1);
}

const service = await startService({
  ...(tls ? { tls } : {}),
  port: Number(process.env['PORT'] ?? 8080),
  host: process.env['HOST'] ?? '0.0.0.0',
  dataDir: process.env['PACKING_DATA_DIR'] ?? './data',
  ...(process.env['SOLVER_THREADS'] ? { solverThreads: Number(process.env['SOLVER_THREADS']) } : {}),
  ...(process.env['PUBLIC_BASE_URL'] ? { publicBaseUrl: process.env['PUBLIC_BASE_URL'] } : {}),
  ...(process.env['QUEUE_TIMEOUT_SECONDS'] ? { queueTimeoutMs: Number(process.env['QUEUE_TIMEOUT_SECONDS']) * 1000 } : {}),
});

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    service.services.log.info({ signal }, 'stopping');
    void service.close().then(() => process.exit(0));
  });
}
