/**
 * StoreRetry (service/solver-node/store-retry.ts): store steps of the solver node retried through an outage,
 * one log line per failure streak and one on recovery; a job's own errors (a decider's refusal, a
 * conflict) are not retried; closing the node ends a waiting retry at once.
 */
import t from 'tap';
import { pino, type Logger } from 'pino';
import { DomainError } from '../../../domain/decider/decider.js';
import { ConcurrencyError } from '../../../domain/ports/event-store.js';
import { NodeClosing, StoreRetry } from '../../../service/solver-node/store-retry.js';
import { isStoreFailure } from '../../../domain/ports/store-unavailable.js';

/** A logger whose JSON lines land in `lines`. */
function capture(): { log: Logger; lines: Record<string, any>[] } {
  const lines: Record<string, any>[] = [];
  return { lines, log: pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) }) };
}

t.test(
  'a step failing with store errors is retried with doubling waits until it succeeds; two log lines for the streak',
  async (t) => {
    const { log, lines } = capture();
    const retry = new StoreRetry(log, new AbortController().signal, { minMs: 10, maxMs: 40 });
    const tries: number[] = [];
    const result = await retry.run('reading the job', 'job_1', async () => {
      tries.push(Date.now());
      if (tries.length <= 5) throw new Error('connection refused');
      return 'state';
    });
    t.equal(result, 'state');
    t.equal(tries.length, 6);
    const waits = tries.slice(1).map((at, i) => at - tries[i]!);
    // 10, 20, 40, 40, 40 ms (timers may fire a little late, never early).
    t.ok(
      waits.every((w, i) => w >= [10, 20, 40, 40, 40][i]! - 2),
      `waits ${waits.join(', ')} ms`,
    );
    t.ok(waits[4]! < 200, 'capped');
    t.same(
      lines.map((l) => [l['level'], l['msg']]),
      [
        [50, 'event store unavailable: the solver keeps its solve commands and retries'],
        [30, 'event store available again: the solver goes on'],
      ],
    );
    t.equal(lines[0]!['step'], 'reading the job');
    t.equal(lines[0]!['jobId'], 'job_1');
    t.equal(lines[1]!['failures'], 5);
    t.equal(lines[1]!['jobs'], 1);
  },
);

t.test('failures of several jobs in one outage make one streak', async (t) => {
  const { log, lines } = capture();
  const retry = new StoreRetry(log, new AbortController().signal, { minMs: 5, maxMs: 5 });
  let down = true;
  const step = async (): Promise<number> => {
    if (down) throw new Error('timeout');
    return 1;
  };
  const both = Promise.all([
    retry.run('reading the job', 'job_a', step),
    retry.run('storing the result', 'job_b', step),
  ]);
  await new Promise((resolve) => setTimeout(resolve, 50));
  down = false;
  t.same(await both, [1, 1]);
  t.equal(lines.length, 2, 'one line when it began, one when it ended');
  t.equal(lines[1]!['jobs'], 2);
});

t.test("a job's own errors are not retried", async (t) => {
  const { log, lines } = capture();
  const retry = new StoreRetry(log, new AbortController().signal, { minMs: 5, maxMs: 5 });
  let calls = 0;
  await t.rejects(
    retry.run('recording the success', 'job_1', async () => {
      calls += 1;
      throw new DomainError('job_already_finished', 'ended');
    }),
    DomainError,
  );
  await t.rejects(
    retry.run('recording the success', 'job_1', async () => {
      calls += 1;
      throw new ConcurrencyError('job-job_1', 3, 4);
    }),
    ConcurrencyError,
  );
  t.equal(calls, 2, 'each tried once');
  t.same(lines, [], 'nothing logged as an outage');
  t.equal(isStoreFailure(new Error('ECONNRESET')), true);
  t.equal(isStoreFailure(new DomainError('job_not_found', 'x')), false);
  const tooLarge = Object.assign(new Error('append to jobbody-x: 2000000 bytes exceed the limit'), {
    name: 'EventTooLargeError',
  });
  t.equal(isStoreFailure(tooLarge), false, 'an append over the size limit is not waited out');
  const corrupt = Object.assign(new Error('body chunks do not match their digest'), { name: 'JobBodyCorruptError' });
  t.equal(isStoreFailure(corrupt), false, 'a body that does not decode is not waited out');
});

t.test('closing ends a waiting retry at once with NodeClosing', async (t) => {
  const { log } = capture();
  const stopping = new AbortController();
  const retry = new StoreRetry(log, stopping.signal, { minMs: 60_000, maxMs: 60_000 });
  const running = retry.run('reading the job', 'job_1', async () => {
    throw new Error('unreachable');
  });
  await new Promise((resolve) => setTimeout(resolve, 20));
  const closedAt = Date.now();
  stopping.abort();
  await t.rejects(running, NodeClosing);
  t.ok(Date.now() - closedAt < 1000, 'not after the 60 s wait');
});
