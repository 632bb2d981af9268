/**
 * `npm start`: the service on the embedded default. Environment: PORT (default 8080),
 * HOST (default 0.0.0.0), PACKING_DATA_DIR (default ./data), SOLVER_THREADS (default: cores),
 * PUBLIC_BASE_URL (links in answers; default from the request), LOG_LEVEL (default info).
 */
import { startService } from './server.js';

const service = await startService({
  port: Number(process.env['PORT'] ?? 8080),
  host: process.env['HOST'] ?? '0.0.0.0',
  dataDir: process.env['PACKING_DATA_DIR'] ?? './data',
  ...(process.env['SOLVER_THREADS'] ? { solverThreads: Number(process.env['SOLVER_THREADS']) } : {}),
  ...(process.env['PUBLIC_BASE_URL'] ? { publicBaseUrl: process.env['PUBLIC_BASE_URL'] } : {}),
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
