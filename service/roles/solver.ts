/**
 * The solver role: a solver node (service/solver-node/node.ts) consuming solve commands from the
 * bus, with a search pool of its own (solver/solve.ts). The in-process bus hands every waiting
 * job to the node's fair queue; from NATS a node takes as many more as it computes.
 */
import type { Logger } from 'pino';
import type { Bus } from '../../domain/ports/bus.js';
import type { EventStore } from '../../domain/ports/event-store.js';
import { Solver } from '../../solver/solve.js';
import type { Profile } from '../profile.js';
import { DEFAULT_SOLVER_CONCURRENCY, IN_PROCESS_PREFETCH, SolverNode } from '../solver-node/node.js';

/** What the solver role runs with. */
export interface SolverRoleOptions {
  profile: Profile;
  store: EventStore;
  bus: Bus;
  /** RFC 3339 now. */
  clock: () => string;
  log: Logger;
  /** Worker threads of the search (default: the cores available). */
  threads?: number | undefined;
  /** Jobs computing at once on this node (default DEFAULT_SOLVER_CONCURRENCY). */
  concurrency?: number | undefined;
  /** The search threads' module (solver/solve.ts SolverOptions `threadModule`; default beside the solver). */
  threadModule?: URL | undefined;
}

/**
 * Starts the node; it logs once it consumes. Returns the stop: the node hands back what it runs,
 * then the search pool closes.
 */
export function startSolver(options: SolverRoleOptions): () => Promise<void> {
  const { store, bus, clock, log } = options;
  const concurrency = options.concurrency ?? DEFAULT_SOLVER_CONCURRENCY;
  const solver = new Solver({
    ...(options.threads ? { threads: options.threads } : {}),
    threadModule: options.threadModule,
    concurrency,
  });
  const prefetch = options.profile.bus.kind === 'inproc' ? IN_PROCESS_PREFETCH : concurrency;
  const node = new SolverNode({ store, bus, solver, clock, log, concurrency, prefetch });
  void node
    .start()
    .then(() =>
      log.info(
        { threads: solver.threads, poolThreads: solver.poolThreads, concurrency, prefetch },
        'solver node consuming solve commands',
      ),
    );
  return async () => {
    await node.close();
    await solver.close();
  };
}
