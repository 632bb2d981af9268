/**
 * The given / when / then helper of the decider tests (test/helpers/decider-spec.ts) fails when
 * the events, their ids or the refusal differ: a recording Assert stands in for tap's.
 */
import t from 'tap';
import type { Decider, DomainEvent } from '../../../domain/decider/decider.js';
import { DomainError } from '../../../domain/errors.js';
import { deciderSpec, type Assert } from '../../helpers/decider-spec.js';

type CounterEvent = DomainEvent<'Added', { n: number }>;
type CounterCommand = { type: 'Add'; n: number } | { type: 'Reset' };
const counter: Decider<number, CounterCommand, CounterEvent> = {
  initialState: () => 0,
  evolve: (s, e) => s + e.data.n,
  decide: (c, s) => {
    if (c.type === 'Reset') throw new DomainError('conflict', `at ${s}`);
    if (c.n > 10)
      throw new DomainError('validation_failed', 'too big', [
        { path: 'n', code: 'out_of_range', message: 'at most 10' },
      ]);
    return c.n === 0 ? [] : [{ type: 'Added', id: `add:${s + c.n}`, data: { n: c.n } }];
  },
};

/** The verdicts of every assertion the helper made. */
function recorder(): Assert & { verdicts: boolean[] } {
  const verdicts: boolean[] = [];
  const note = (ok: boolean) => (verdicts.push(ok), ok);
  return {
    verdicts,
    same: (a, b) => note(JSON.stringify(a) === JSON.stringify(b)),
    ok: (v) => note(Boolean(v)),
    fail: () => note(false),
  };
}

const added = (n: number, total: number): CounterEvent => ({ type: 'Added', id: `add:${total}`, data: { n } });

t.test('passes on the events the decider returns, folding the given ones first', async (t) => {
  const r = recorder();
  const outcome = deciderSpec(r, counter)
    .given([added(2, 2), added(3, 5)])
    .when({ type: 'Add', n: 1 })
    .then([added(1, 6)]);
  t.same(r.verdicts, [true]);
  t.same([outcome.state, outcome.history.length], [6, 3]);
});

t.test('fails on other data, another type, a missing or different id, or more events', async (t) => {
  for (const wrong of [
    [added(2, 6)],
    [{ ...added(1, 6), type: 'Removed' }],
    [{ type: 'Added', data: { n: 1 } }],
    [added(1, 7)],
    [added(1, 6), added(1, 6)],
    [],
  ]) {
    const r = recorder();
    deciderSpec(r, counter)
      .given([added(5, 5)])
      .when({ type: 'Add', n: 1 })
      .then(wrong as CounterEvent[]);
    t.same(r.verdicts, [false], JSON.stringify(wrong));
  }
  const r = recorder();
  deciderSpec(r, counter).given([]).when({ type: 'Add', n: 1 }).thenNothing();
  t.same(r.verdicts, [false], 'thenNothing fails on an event');
});

t.test(
  'thenThrows: passes on the code and exact details, fails on another code, other details or no refusal',
  async (t) => {
    const spec = (assert: Assert) => deciderSpec(assert, counter).given([added(4, 4)]);
    const check = (run: (a: Assert) => unknown): boolean[] => {
      const r = recorder();
      run(r);
      return r.verdicts;
    };
    t.same(
      check((a) => spec(a).when({ type: 'Reset' }).thenThrows('conflict')),
      [true, true],
    );
    t.same(
      check((a) => spec(a).when({ type: 'Reset' }).thenThrows(DomainError)),
      [true],
    );
    t.same(
      check((a) =>
        spec(a)
          .when({ type: 'Add', n: 11 })
          .thenThrows('validation_failed', [{ path: 'n', code: 'out_of_range', message: 'at most 10' }]),
      ),
      [true, true],
    );
    t.same(
      check((a) => spec(a).when({ type: 'Reset' }).thenThrows('not_found')),
      [true, false],
      'another code',
    );
    t.same(
      check((a) => spec(a).when({ type: 'Add', n: 11 }).thenThrows('validation_failed')),
      [true, false],
      'details not expected',
    );
    t.same(
      check((a) => spec(a).when({ type: 'Add', n: 11 }).thenThrows('validation_failed', [])),
      [true, false],
      'other details',
    );
    t.same(
      check((a) => spec(a).when({ type: 'Add', n: 1 }).thenThrows('conflict')),
      [false],
      'no refusal',
    );
    t.same(
      check((a) => spec(a).when({ type: 'Reset' }).thenThrows(TypeError)),
      [false],
      'another class',
    );
  },
);
