/**
 * The typed client's plan revisions against the real service: createPlanRevision saves revision
 * 1, getJobResult({revision}) reads it back, listPlanRevisions / iteratePlanRevisions list it,
 * a stale base throws ConflictError `conflict` and a broken rule ValidationError with its detail.
 */
import t from 'tap';
import { ConflictError, PackingClient, ValidationError, type PackRequest } from '../../clients/typescript/src/index.js';
import { inProcessService, orgWithKey } from '../helpers/in-process-service.js';

const run = inProcessService(t, 'client-revisions');
const request: PackRequest = {
  vehicles: [{ id: 'van', type: 'truck', name: 'Van', length: 300, width: 180, height: 180, max_weight: 1000 }],
  items: [{ id: 'box', label: 'Box', length: 60, width: 40, height: 40, weight: 10, quantity: 5 }],
  options: { packing_mode: 'fleet_only', time_limit: 10 },
};

t.test('save, read, list; stale and invalid edits throw typed errors', async (t) => {
  const api = new PackingClient({ baseUrl: run.service.url, apiKey: (await orgWithKey(run.service)).key });
  const job = await api.pack(request, { wait: true });
  t.equal(job.status, 'succeeded');
  const own = await api.getJobResult(job.id);
  const units = own.vehicles[0]!.placements;
  const top = [...units].sort((a, b) => b.y + b.height - (a.y + a.height))[0]!;
  const remove = { op: 'remove' as const, item_id: top.item_id, instance: top.instance };

  const saved = await api.createPlanRevision(job.id, { base_revision: 0, operations: [remove] });
  t.same([saved.revision, saved.base_revision, saved.operations_count], [1, 0, 1]);
  t.equal(saved.result.unplaced.length, own.unplaced.length + 1);
  t.same(await api.getJobResult(job.id, { revision: 1 }), saved.result, 'read back');
  t.same(
    (await api.listPlanRevisions(job.id)).data.map((r) => r.revision),
    [1],
  );
  const all = [];
  for await (const r of api.iteratePlanRevisions(job.id, { limit: 1 })) all.push(r.revision);
  t.same(all, [1]);

  const stale = await api.createPlanRevision(job.id, { base_revision: 0, operations: [remove] }).catch((e) => e);
  t.ok(stale instanceof ConflictError);
  t.equal(stale.code, 'conflict');

  // The removed unit placed onto another unit's spot: they overlap.
  const other = saved.result.vehicles[0]!.placements[0]!;
  const onto = {
    op: 'place' as const,
    item_id: top.item_id,
    instance: top.instance,
    vehicle: 0,
    x: other.x,
    y: other.y,
    z: other.z,
    orientation: other.orientation,
  };
  const invalid = await api.createPlanRevision(job.id, { base_revision: 1, operations: [onto] }).catch((e) => e);
  t.ok(invalid instanceof ValidationError);
  t.ok(
    invalid.details.some((d: { path: string; code: string }) => d.path === 'operations[0]' && d.code === 'overlap'),
    JSON.stringify(invalid.details),
  );
});
