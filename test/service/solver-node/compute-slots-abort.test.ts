/**
 * Giving up a wait for a compute slot (service/solver-node/compute-slots.ts `acquire(orgId, signal)`): the job
 * leaves the queue with SlotWaitAborted, the others keep their order, and a signal that aborts
 * after the slot was given changes nothing.
 */
import t from 'tap';
import { ComputeSlots, SlotWaitAborted } from '../../../service/solver-node/compute-slots.js';

t.test('an aborted wait leaves the queue; the next waiter gets the slot', async (t) => {
  const slots = new ComputeSlots(1);
  const release = await slots.acquire('org_a');
  const leaving = new AbortController();
  const gone = slots.acquire('org_b', leaving.signal);
  const staying = slots.acquire('org_c');
  t.equal(slots.waitingJobs, 2);
  leaving.abort();
  await t.rejects(gone, SlotWaitAborted);
  t.equal(slots.waitingJobs, 1);
  release();
  const next = await staying;
  t.equal(slots.inUse, 1, 'org_c computes');
  next();
  t.equal(slots.inUse, 0);
});

t.test('an already aborted signal is refused at once; an abort after the grant does nothing', async (t) => {
  const slots = new ComputeSlots(1);
  const aborted = new AbortController();
  aborted.abort();
  await t.rejects(slots.acquire('org_a', aborted.signal), SlotWaitAborted);
  t.equal(slots.waitingJobs, 0);
  const late = new AbortController();
  const release = await slots.acquire('org_a', late.signal);
  late.abort();
  t.equal(slots.inUse, 1, 'the slot stays given');
  release();
  t.equal(slots.inUse, 0);
});
