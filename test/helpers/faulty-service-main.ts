/**
 * A test-only entry point: the service as service/main.ts starts it (profile from the environment),
 * with its event store wrapped in test/helpers/faulty-event-store.ts and faults injected on a
 * timetable read from FAULTS, a JSON FaultPlan such as
 * `{"dropEvery":25,"failEveryMs":5000,"failForMs":800}`. Logs one line per outage ("store outage
 * injected") and, when stopped by SIGTERM/SIGINT, the faults it injected ("faults injected", with
 * `counts`) before "stopped". test/helpers/local-cluster.ts starts it with the `faults` option.
 */
import { profileFromEnvironment } from '../../service/profile.js';
import { startService } from '../../service/server.js';
import { FaultyEventStore, runFaultPlan, type FaultPlan } from './faulty-event-store.js';

const plan = JSON.parse(process.env['FAULTS'] ?? '{}') as FaultPlan;
let faulty: FaultyEventStore | undefined;
const service = await startService({
  profile: profileFromEnvironment(process.env),
  port: Number(process.env['PORT'] ?? 0),
  host: process.env['HOST'] ?? '127.0.0.1',
  dataDir: process.env['PACKING_DATA_DIR'] ?? './data',
  ...(process.env['SOLVER_THREADS'] ? { solverThreads: Number(process.env['SOLVER_THREADS']) } : {}),
  ...(process.env['QUEUE_TIMEOUT_SECONDS']
    ? { queueTimeoutMs: Number(process.env['QUEUE_TIMEOUT_SECONDS']) * 1000 }
    : {}),
  decorateStore: (store) => (faulty = new FaultyEventStore(store)),
});
const log = service.services.log;
const stopFaults = runFaultPlan(faulty!, plan, (ms) => log.info({ ms }, 'store outage injected'));
log.info({ plan }, 'injecting store faults');

let stopping = false;
function stop(signal: string): void {
  if (stopping) return;
  stopping = true;
  stopFaults();
  log.info({ signal, counts: faulty!.counts }, 'faults injected');
  void service.close().then(
    () => {
      log.info('stopped');
      process.exit(0);
    },
    (err: unknown) => {
      log.error({ err }, 'stopping failed');
      process.exit(1);
    },
  );
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => stop(signal));
