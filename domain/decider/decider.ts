/**
 * Deciders (DESIGN §3): `decide(command, state) → events`, `evolve(state, event) → state`,
 * `initialState()`. Pure: time, ids and prices come in with the command.
 */
import type { Actor } from './actor.js';

/** An event a decider emits. `id` is set when a retry must not write it twice (deterministic id). */
export interface DomainEvent<T extends string = string, D = unknown> {
  type: T;
  data: D;
  id?: string;
}

/** Who asks and when: time comes in with the command (STYLE 1), never from the decider's machine. */
export interface CommandMetadata {
  /** ISO time of the command, from the injected clock. */
  now: string;
  /** Who asks: a member, or the service itself (domain/decider/actor.ts). */
  actor: Actor;
}

/** A command (STYLE, after emmett's Command): what to do (`type`, `data`) and who asks when (`metadata`). */
export interface Command<T extends string = string, D = unknown, M extends CommandMetadata = CommandMetadata> {
  type: T;
  data: D;
  metadata: M;
}

export interface Decider<S, C, E extends DomainEvent> {
  initialState(): S;
  evolve(state: S, event: E): S;
  /** Returns the events the command causes; throws a DomainError when the command is refused. */
  decide(command: C, state: S): E[];
  /**
   * `decide` together with the state its events leave (what folding them with `evolve` gives),
   * for a decider that computes that state while deciding anyway (batchDecider,
   * domain/decider/batch.ts): handleCommand then does not fold the events a second time.
   */
  decideFolded?(command: C, state: S): { events: E[]; state: S };
  /**
   * For long-lived streams (DESIGN §3): keep a snapshot of the state every `every` events so a
   * command reads a bounded number of events. `version` changes whenever `evolve` or the state's
   * shape changes, which makes older snapshots ignored.
   */
  snapshot?: SnapshotPolicy<S>;
}

/**
 * When and how a decider's state is snapshotted (domain/decider/handle.ts). `every`: events
 * between snapshots, or a function of the state (a state whose snapshot costs O(n) takes one
 * every Ω(n) events). `encode`/`decode`: the state as JSON and back, for states that are not
 * plain JSON values (default: the state itself, copied with structuredClone when read).
 */
export interface SnapshotPolicy<S> {
  every: number | ((state: S) => number);
  version: number;
  encode?: (state: S) => unknown;
  decode?: (data: unknown) => S;
}

/** Refused commands throw a DomainError (domain/errors.ts): a code of the spec, no HTTP status. */
export { DomainError } from '../errors.js';
