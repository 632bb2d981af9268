/**
 * Commands decided together (DESIGN §3): a list of commands of one stream decided in order, each
 * against the state the events of the ones before it left, and written in ONE append. Start-up
 * recovery settles thousands of jobs of one organization this way (domain/job/process.ts
 * `recover`): one ledger append, one fsync and one state load per batch instead of per job. The
 * events keep the ids the single commands give them (e.g. `<job>:settled`), so a batch run twice
 * writes nothing the second time, and a command the state already answered decides `[]`.
 */
import type { Decider, DomainEvent } from './decider.js';

const batches = new WeakMap<object, object>();

/**
 * The decider of lists of `decider`'s commands: same state, events and snapshots; `decide` folds
 * the commands in order (one that throws refuses the whole list). One object per `decider`, so the
 * folded states handleCommand keeps per decider (domain/decider/handle.ts) are reused across batches.
 */
export function batchDecider<S, C, E extends DomainEvent>(decider: Decider<S, C, E>): Decider<S, readonly C[], E> {
  const known = batches.get(decider) as Decider<S, readonly C[], E> | undefined;
  if (known) return known;
  const decideFolded = (commands: readonly C[], state: S): { events: E[]; state: S } => {
    const events: E[] = [];
    let current = state;
    for (const command of commands) {
      const decided = decider.decide(command, current);
      for (const e of decided) current = decider.evolve(current, e);
      events.push(...decided);
    }
    return { events, state: current };
  };
  const batch: Decider<S, readonly C[], E> = {
    initialState: () => decider.initialState(),
    evolve: (state, event) => decider.evolve(state, event),
    decide: (commands, state) => decideFolded(commands, state).events,
    // The state after the batch is folded while deciding: handleCommand keeps it as it is
    // (10,000 settlements at start-up: 10,000 ledger evolves fewer).
    decideFolded,
    ...(decider.snapshot ? { snapshot: decider.snapshot } : {}),
  };
  batches.set(decider, batch);
  return batch;
}
