/**
 * A running job's progress moves while it computes (spec Job `progress`): over HTTP on the real
 * service, a job whose search runs to its time limit (more cartons than its one vehicle holds)
 * shows `progress.placed_items` above 0 and its `vehicles_done` while still `running`, from the
 * best plan so far of the search's workers (solver/solve.ts), and its final figures once done.
 */
import t from 'tap';
import { inProcessService, orgWithKey } from '../helpers/in-process-service.js';
import { call } from '../helpers/service-process.js';

const run = inProcessService(t, 'job-progress');

t.test('progress.placed_items moves while the job is running', async (t) => {
  const o = await orgWithKey(run.service);
  const { projections } = run.service.services;
  // Every progress event the read models apply, and the API's answer right after each one.
  const progressed: {
    jobId: string;
    placed: number;
    shown: Promise<{ status: string; placed: number; vehicles: number }>;
  }[] = [];
  let ended: (jobId: string) => void = () => {};
  const off = projections.onApplied((e) => {
    const data = e.data as { jobId?: string; placedItems?: number };
    if (e.type === 'JobProgressed' && data.jobId && (data.placedItems ?? 0) > 0)
      progressed.push({
        jobId: data.jobId,
        placed: data.placedItems!,
        shown: call(run.service.url, o.key, 'GET', `/v1/jobs/${data.jobId}`).then(({ body }) => ({
          status: body.status,
          placed: body.progress.placed_items,
          vehicles: body.progress.vehicles_done,
        })),
      });
    if ((e.type === 'JobSucceeded' || e.type === 'JobFailed') && data.jobId) ended(data.jobId);
  });
  t.teardown(off);
  const done = new Promise<string>((resolve) => (ended = resolve));
  const posted = await call(run.service.url, o.key, 'POST', '/v1/pack', {
    vehicles: [{ id: 'van', type: 'truck', name: 'Van', length: 300, width: 170, height: 170, max_weight: 1500 }],
    items: [
      { id: 'a', length: 47, width: 33, height: 29, weight: 4, quantity: 150 },
      { id: 'b', length: 61, width: 38, height: 23, weight: 6, quantity: 120 },
    ],
    options: { packing_mode: 'fleet_only', time_limit: 3 },
  });
  t.equal(posted.status, 202, JSON.stringify(posted.body.error ?? null));
  if (posted.status !== 202) return;
  t.equal(await done, posted.body.id, 'the job ended');
  const mine = progressed.filter((p) => p.jobId === posted.body.id);
  const shown = await Promise.all(mine.map((p) => p.shown));
  const running = shown.filter((s) => s.status === 'running');
  t.ok(
    running.some((s) => s.placed > 0 && s.vehicles === 1),
    `GET /v1/jobs/{id} showed placed_items above 0 and vehicles_done 1 while running (${JSON.stringify(running)})`,
  );
  const final = (await call(run.service.url, o.key, 'GET', `/v1/jobs/${posted.body.id}`)).body;
  t.equal(final.status, 'succeeded');
  // The best so far is judged by placed volume first, so its unit count need not rise steadily.
  t.ok(
    mine.every((p) => p.placed > 0 && p.placed <= 270),
    'every report counts units of the job',
  );
  t.ok(
    final.progress.placed_items > 0 && final.progress.placed_items < 270,
    `the final plan places ${final.progress.placed_items} of 270 (the van cannot hold them all)`,
  );
});
