import t from 'tap';
import { closeAll } from '../../service/open-adapters.js';

t.test('every closer runs, last opened first, even when one fails; its error is thrown', async (t) => {
  const ran: string[] = [];
  const boom = new Error('drain failed');
  const closers = [
    () => void ran.push('lock'),
    async () => void ran.push('store'),
    async () => {
      ran.push('bus');
      throw boom;
    },
    () => void ran.push('counters'),
  ];
  await t.rejects(closeAll(closers), boom);
  t.same(ran, ['counters', 'bus', 'store', 'lock']);
});

t.test('several failures: all closers run, then one AggregateError holds every error', async (t) => {
  const ran: string[] = [];
  const a = new Error('store');
  const b = new Error('bus');
  const err = await closeAll([
    () => void ran.push('lock'),
    () => {
      ran.push('store');
      throw a;
    },
    async () => {
      ran.push('bus');
      throw b;
    },
  ]).then(
    () => undefined,
    (e: unknown) => e,
  );
  t.same(ran, ['bus', 'store', 'lock']);
  t.ok(err instanceof AggregateError, 'an AggregateError');
  t.same((err as AggregateError).errors, [b, a], 'in the order the closers ran');
});

t.test('nothing fails: resolves after running each closer once', async (t) => {
  let count = 0;
  await closeAll([() => void (count += 1), async () => void (count += 1)]);
  t.equal(count, 2);
});
