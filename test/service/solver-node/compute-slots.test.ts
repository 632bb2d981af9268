/** The fair order of a solver node's compute slots (service/solver-node/compute-slots.ts). */
import t from 'tap';
import { ComputeSlots, ComputeSlotsClosed, type ReleaseSlot } from '../../../service/solver-node/compute-slots.js';

/** Records the order in which jobs get a slot. */
function recorder(slots: ComputeSlots) {
  const started: string[] = [];
  const releases = new Map<string, ReleaseSlot>();
  const ask = (org: string, job: string): Promise<void> =>
    slots.acquire(org).then((release) => {
      started.push(job);
      releases.set(job, release);
    });
  return { started, release: (job: string) => releases.get(job)!(), ask };
}

/** Lets resolved promises run. */
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

t.test('a free slot is given at once; beyond the size jobs wait', async (t) => {
  const slots = new ComputeSlots(2);
  const r = recorder(slots);
  void r.ask('A', 'a1');
  void r.ask('C', 'c1');
  void r.ask('B', 'b1');
  await settle();
  t.same(r.started, ['a1', 'c1']);
  t.same([slots.inUse, slots.waitingJobs], [2, 1]);
  r.release('a1');
  await settle();
  t.same(r.started, ['a1', 'c1', 'b1']);
  r.release('a1');
  t.equal(slots.inUse, 2, 'a second release of the same slot does nothing');
});

t.test("organizations take turns: one organization's backlog does not hold back another's job", async (t) => {
  const slots = new ComputeSlots(1);
  const r = recorder(slots);
  void r.ask('A', 'a1');
  await settle();
  for (const job of ['a2', 'a3', 'a4']) void r.ask('A', job);
  void r.ask('B', 'b1');
  void r.ask('C', 'c1');
  void r.ask('B', 'b2');
  await settle();
  for (const job of ['a1', 'b1', 'c1', 'a2', 'b2', 'a3']) {
    r.release(job);
    await settle();
  }
  t.same(
    r.started,
    ['a1', 'b1', 'c1', 'a2', 'b2', 'a3', 'a4'],
    'round robin by organization, each organization oldest first',
  );
});

t.test('an organization with nothing computing goes before one that computes', async (t) => {
  const slots = new ComputeSlots(2);
  const r = recorder(slots);
  void r.ask('A', 'a1');
  void r.ask('A', 'a2');
  await settle();
  void r.ask('A', 'a3');
  void r.ask('B', 'b1');
  await settle();
  r.release('a1');
  await settle();
  t.same(r.started, ['a1', 'a2', 'b1']);
});

t.test('closing rejects the waiting jobs, not the computing ones', async (t) => {
  const slots = new ComputeSlots(1);
  const r = recorder(slots);
  void r.ask('A', 'a1');
  const waiting = slots.acquire('B');
  await settle();
  slots.close();
  await t.rejects(waiting, ComputeSlotsClosed);
  await t.rejects(slots.acquire('C'), ComputeSlotsClosed, 'nothing new after close');
  t.same([slots.inUse, slots.waitingJobs], [1, 0]);
  t.throws(() => new ComputeSlots(0), RangeError);
});
