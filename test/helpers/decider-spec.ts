/**
 * Given / when / then for deciders (STYLE Tests; after emmett's DeciderSpecification):
 *
 *   const { given } = deciderSpec(t, projectDecider);
 *   given([created]).when(updateCommand).then([expectedEvent]);
 *   given([created, deleted]).when(updateCommand).thenThrows('project_not_found');
 *
 * `given` folds the events with the decider's `evolve` from `initialState` (as the store does:
 * type and data only), `when` runs `decide` on that state, and `then` asserts the events it
 * returns: their types, data and ids (an event without an id must be expected without one).
 * `thenThrows` asserts the refusal: a DomainError with this code (and exactly these details, or
 * none), or an error of this class. Times come from the fixed clock below, never from the machine.
 */
import type { Decider, DomainEvent } from '../../domain/decider/decider.js';
import { DomainError, type ErrorCode, type ErrorProblem } from '../../domain/errors.js';

/** The actor of commands in decider tests (a member). */
export const ACTOR = { id: 'usr_tester', name: 'Tess Tester' };

/** The fixed clock of decider tests. */
export const NOW = '2026-11-22T10:00:00.000Z';
/** One hour after NOW. */
export const LATER = '2026-11-22T11:00:00.000Z';
/** NOW plus `ms` milliseconds, as an ISO time. */
export const after = (ms: number): string => new Date(Date.parse(NOW) + ms).toISOString();

/** The assertions the spec needs (a tap Test has them). */
export interface Assert {
  same(found: unknown, wanted: unknown, message: string): boolean;
  ok(value: unknown, message: string): boolean;
  fail(message: string): boolean;
}

/** What a command caused: its events, the state after them and every event so far (given + new). */
export interface Outcome<S, E> {
  events: E[];
  state: S;
  history: E[];
}

type ErrorClass = abstract new (...args: never[]) => Error;

export interface When<S, E> {
  /** Asserts `decide` returned exactly `expected` (type, data, id), in order. */
  then(expected: E[], message?: string): Outcome<S, E>;
  /** Asserts `decide` returned no event. */
  thenNothing(message?: string): Outcome<S, E>;
  /**
   * Asserts `decide` refused: with an ErrorCode, a DomainError of that code whose details equal
   * `details` (absent when not given); with a class, an error of that class. Returns the error.
   */
  thenThrows(expected: ErrorCode | ErrorClass, details?: ErrorProblem[], message?: string): Error | undefined;
}

export interface Given<S, C, E> {
  /** The state folded from `events`. */
  state: S;
  when(command: C): When<S, E>;
}

/** An event as compared: type, data and the id when it has one. */
const comparable = (e: DomainEvent): DomainEvent => ({
  type: e.type,
  data: e.data,
  ...(e.id !== undefined ? { id: e.id } : {}),
});

/** The given / when / then of `decider`, asserting with `t`. */
export function deciderSpec<S, C, E extends DomainEvent>(
  t: Assert,
  decider: Decider<S, C, E>,
): { given: (events: E[]) => Given<S, C, E> } {
  return {
    given(past) {
      const state = past.reduce(
        (s, e) => decider.evolve(s, { type: e.type, data: e.data } as E),
        decider.initialState(),
      );
      return {
        state,
        when(command) {
          const run = (): Outcome<S, E> => {
            const events = decider.decide(command, state);
            return {
              events,
              state: events.reduce((next, event) => decider.evolve(next, event), state),
              history: [...past, ...events],
            };
          };
          const described = (message: string | undefined, fallback: string) =>
            message ?? `${(command as { type?: string }).type ?? 'command'}: ${fallback}`;
          const then = (expected: E[], message?: string): Outcome<S, E> => {
            const outcome = run();
            t.same(outcome.events.map(comparable), expected.map(comparable), described(message, 'events'));
            return outcome;
          };
          return {
            then,
            thenNothing: (message) => then([], described(message, 'no event')),
            thenThrows(expected, details, message) {
              let events: E[];
              try {
                events = decider.decide(command, state);
              } catch (err) {
                if (typeof expected === 'string') {
                  t.ok(err instanceof DomainError, described(message, 'refused with a DomainError'));
                  const e = err as DomainError;
                  t.same(
                    { code: e.code, details: e.details },
                    { code: expected, details },
                    described(message, `refused with ${expected}`),
                  );
                } else {
                  t.ok(err instanceof expected, described(message, `refused with ${expected.name}`));
                }
                return err as Error;
              }
              t.fail(described(message, `expected a refusal, got ${JSON.stringify(events.map((e) => e.type))}`));
              return undefined;
            },
          };
        },
      };
    },
  };
}
