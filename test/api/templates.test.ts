/**
 * Cargo templates on the real embedded service (in process, temporary data dir, free port): CRUD
 * with exact records, validation answers, the plan cap, paging with q and created_by, another
 * organization's ids, and pack requests resolving own vehicles and templates.
 */
import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { startService, type RunningService } from '../../service/server.js';
import { createApiKey, provisionOrganization } from '../../application/provision.js';
import { newId } from '../../application/id.js';
import { handleCommand } from '../../domain/decider/handle.js';
import { organizationDecider } from '../../domain/organization/decide.js';
import { orgStream } from '../../domain/organization/streams.js';
import { call } from '../helpers/service-process.js';
import { serviceActor } from '../../domain/decider/actor.js';
import { solverThreadModule } from '../helpers/compiled-service.js';

const dir = mkdtempSync(join(tmpdir(), 'packing-templates-'));
let service: RunningService;
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

t.before(async () => {
  service = await startService({
    solverThreadModule: solverThreadModule(),
    port: 0,
    host: '127.0.0.1',
    dataDir: dir,
    solverThreads: 1,
    log: pino({ level: 'silent' }),
  });
});
t.teardown(async () => {
  await service.close();
  rmSync(dir, { recursive: true, force: true });
});

type Api = (method: string, path: string, body?: unknown, raw?: string) => ReturnType<typeof call>;

/** A key of every scope for `memberId` of `orgId`, as an API caller. */
async function keyFor(orgId: string, memberId: string): Promise<Api> {
  const k = await createApiKey(service.services.store, { orgId, memberId, name: 't', now: new Date().toISOString() });
  await service.services.projections.waitFor(k.position);
  return (method, path, body, raw) => call(service.url, k.secret, method, path, body, raw);
}

/** A new organization whose owner is `ownerName`. */
async function org(ownerName = 'Olga', limits?: Record<string, unknown>) {
  const now = new Date().toISOString();
  const o = await provisionOrganization(service.services.store, {
    name: 'T',
    ownerName,
    subscriptionCredits: 100,
    expiresAt: '2099-01-01T00:00:00.000Z',
    now,
    ...(limits ? { limits } : {}),
  });
  return { ...o, api: await keyFor(o.orgId, o.ownerId), owner: { id: o.ownerId, name: ownerName } };
}

/** Ids of records newest first (same millisecond: by id, descending), as the lists order them. */
const newestFirst = (records: { id: string; created_at: string }[]): string[] =>
  [...records]
    .sort((x, y) => (x.created_at === y.created_at ? (x.id < y.id ? 1 : -1) : x.created_at < y.created_at ? 1 : -1))
    .map((r) => r.id);

const carton = { label: 'Carton 60', length: 60, width: 40, height: 40, weight: 12 };

t.test('create, read, change and delete a template; records are exact and show their authors', async (t) => {
  const a = await org('Olga');
  const body = {
    ...carton,
    shape: 'box',
    quantity: 5,
    stackable: false,
    rotation: 'upright',
    color: '#aa0000',
    priority: 3,
  };
  const created = await a.api('POST', '/v1/templates', body);
  t.equal(created.status, 201);
  const tpl = created.body;
  t.match(tpl.id, /^tpl_[a-z0-9]{24}$/);
  t.match(tpl.created_at, ISO);
  t.same(tpl, {
    id: tpl.id,
    object: 'template',
    label: 'Carton 60',
    shape: 'box',
    length: 60,
    width: 40,
    height: 40,
    weight: 12,
    stackable: false,
    rotation: 'upright',
    priority: 3,
    color: '#aa0000',
    quantity: 5,
    created_at: tpl.created_at,
    updated_at: tpl.created_at,
    created_by: a.owner,
    updated_by: a.owner,
  });
  t.same((await a.api('GET', `/v1/templates/${tpl.id}`)).body, tpl);

  const now = new Date().toISOString();
  const mia = newId('usr');
  await handleCommand(service.services.store, orgStream(a.orgId), organizationDecider, {
    type: 'AddMember',
    data: { userId: mia, name: 'Mia', role: 'member' },
    metadata: { now, actor: serviceActor('admin') },
  });
  const asMia = await keyFor(a.orgId, mia);
  const patched = await asMia('PATCH', `/v1/templates/${tpl.id}`, { weight: 14, hazardous: true });
  t.equal(patched.status, 200);
  t.same(patched.body, {
    ...tpl,
    weight: 14,
    hazardous: true,
    updated_at: patched.body.updated_at,
    updated_by: { id: mia, name: 'Mia' },
  });
  t.same((await a.api('GET', `/v1/templates/${tpl.id}`)).body, patched.body);

  // Turning it into a drum needs a radius: the record is checked as a whole after the merge.
  const drum = await a.api('PATCH', `/v1/templates/${tpl.id}`, { shape: 'drum', nesting_height: 50 });
  t.equal(drum.status, 422);
  t.same(drum.body.error.details, [
    { path: 'radius', code: 'required', message: 'radius is required when shape is drum' },
    { path: 'nesting_height', code: 'out_of_range', message: 'must be less than the item height 40 cm, got 50' },
  ]);
  const nul = await a.api('PATCH', `/v1/templates/${tpl.id}`, { color: null });
  t.equal(nul.status, 400);
  t.equal(nul.body.error.code, 'invalid_json');

  const deleted = await a.api('DELETE', `/v1/templates/${tpl.id}`);
  t.same(deleted.body, { id: tpl.id, object: 'template', deleted: true });
  const gone = await a.api('GET', `/v1/templates/${tpl.id}`);
  t.equal(gone.status, 404);
  t.equal(gone.body.error.code, 'template_not_found');
});

t.test('POST lists every problem; a wrong JSON type answers 400 with all of them', async (t) => {
  const a = await org();
  const bad = await a.api('POST', '/v1/templates', {
    shape: 'cylinder',
    length: 10,
    height: 20,
    weight: 0,
    quantity: 0,
    color: 'red',
    template_id: 'tpl_x',
    id: 'x',
  });
  t.equal(bad.status, 422);
  t.equal(bad.body.error.code, 'validation_failed');
  t.same(bad.body.error.details.map((d: { path: string; code: string }) => `${d.path} ${d.code}`).sort(), [
    'color invalid_value',
    'id unknown_field',
    'label required',
    'quantity out_of_range',
    'radius required',
    'template_id unknown_field',
    'weight out_of_range',
  ]);
  const typed = await a.api('POST', '/v1/templates', { ...carton, length: '60', stackable: 'no', priority: 1.5 });
  t.equal(typed.status, 400);
  t.same(typed.body.error.details.map((d: { path: string; code: string }) => `${d.path} ${d.code}`).sort(), [
    'length invalid_json',
    'priority invalid_value',
    'stackable invalid_json',
  ]);
  const arr = await a.api('POST', '/v1/templates', [carton]);
  t.equal(arr.status, 400);
  t.same(arr.body.error.details, [
    { path: '', code: 'invalid_json', message: 'the body must be a JSON object, got an array' },
  ]);
});

t.test('the plan caps the templates an organization holds', async (t) => {
  const a = await org('Olga', { maxTemplates: 2 });
  const first = await a.api('POST', '/v1/templates', carton);
  t.equal((await a.api('POST', '/v1/templates', { ...carton, label: 'two' })).status, 201);
  const third = await a.api('POST', '/v1/templates', { ...carton, label: 'three' });
  t.equal(third.status, 403);
  t.equal(third.body.error.code, 'plan_limit_reached');
  t.equal(third.body.error.request_id, third.headers.get('x-request-id'));
  t.equal((await a.api('GET', '/v1/templates')).body.data.length, 2, 'nothing was saved');
  t.equal((await a.api('GET', '/v1/limits')).body.max_saved_items, 2);
  await a.api('DELETE', `/v1/templates/${first.body.id}`);
  t.equal((await a.api('POST', '/v1/templates', { ...carton, label: 'three' })).status, 201, 'deleting frees a place');
});

t.test('list: newest first across pages; q and created_by', async (t) => {
  const a = await org();
  const mia = newId('usr');
  await handleCommand(service.services.store, orgStream(a.orgId), organizationDecider, {
    type: 'AddMember',
    data: { userId: mia, name: 'Mia', role: 'member' },
    metadata: { now: new Date().toISOString(), actor: serviceActor('admin') },
  });
  const asMia = await keyFor(a.orgId, mia);
  const records: { id: string; created_at: string; label: string }[] = [];
  for (let i = 1; i <= 5; i++)
    records.push(
      (
        await (i % 2 ? a.api : asMia)('POST', '/v1/templates', {
          ...carton,
          label: `Crate ${i}${i === 3 ? ' fragile' : ''}`,
        })
      ).body,
    );
  const seen: string[] = [];
  let cursor = '';
  let pages = 0;
  do {
    const res = await a.api('GET', `/v1/templates?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
    t.equal(res.status, 200);
    seen.push(...res.body.data.map((x: { id: string }) => x.id));
    cursor = res.body.next_cursor;
    pages++;
  } while (cursor !== '' && pages < 10);
  t.equal(pages, 3);
  t.same(seen, newestFirst(records));
  t.same(
    (await a.api('GET', '/v1/templates?q=FRAGILE')).body.data.map((x: { id: string }) => x.id),
    [records[2]!.id],
  );
  t.same(
    (await a.api('GET', `/v1/templates?q=${records[4]!.id}`)).body.data.map((x: { id: string }) => x.id),
    [records[4]!.id],
  );
  t.same(
    (await asMia('GET', '/v1/templates?created_by=me')).body.data.map((x: { id: string }) => x.id),
    newestFirst([records[1]!, records[3]!]),
  );
  t.same(
    (await asMia('GET', `/v1/templates?created_by=${a.ownerId}&limit=100`)).body.data.map((x: { id: string }) => x.id),
    newestFirst([records[0]!, records[2]!, records[4]!]),
  );
  const bad = await a.api('GET', '/v1/templates?limit=101');
  t.equal(bad.status, 422);
  t.equal(bad.body.error.details[0].path, 'limit');
});

t.test("another organization's templates are invisible", async (t) => {
  const a = await org();
  const b = await org();
  const tpl = (await a.api('POST', '/v1/templates', carton)).body;
  for (const [method, body] of [['GET'], ['PATCH', { label: 'stolen' }], ['DELETE']] as const) {
    const r = await b.api(method, `/v1/templates/${tpl.id}`, body);
    t.equal(r.status, 404, method);
    t.equal(r.body.error.code, 'template_not_found');
  }
  for (const id of ['tpl_doesnotexist', 'nonsense'])
    t.equal((await a.api('GET', `/v1/templates/${id}`)).body.error.code, 'template_not_found');
  t.same((await b.api('GET', '/v1/templates')).body, { data: [], next_cursor: '' });
  const est = await b.api('POST', '/v1/estimate', {
    vehicles: [{ vehicle_id: 'van-3-5t' }],
    items: [{ template_id: tpl.id }],
  });
  t.equal(est.body.valid, false);
  t.same(
    est.body.errors.map((d: { path: string; code: string }) => `${d.path} ${d.code}`),
    ['items[0].template_id unknown_template'],
  );
  t.same((await a.api('GET', `/v1/templates/${tpl.id}`)).body, tpl);
});

t.test(
  'a pack request resolves own vehicles and templates; fields beside them override; results use the request ids',
  async (t) => {
    const a = await org();
    const van = (
      await a.api('POST', '/v1/vehicles', {
        name: 'Our van',
        type: 'truck',
        length: 400,
        width: 180,
        height: 190,
        max_weight: 1000,
      })
    ).body;
    const tpl = (await a.api('POST', '/v1/templates', { ...carton, quantity: 6 })).body;
    const small = (
      await a.api('POST', '/v1/templates', { label: 'Small', length: 30, width: 30, height: 30, weight: 2 })
    ).body;
    const body = {
      vehicles: [{ id: 'van-a', vehicle_id: van.id, max_weight: 900 }],
      items: [
        { id: 'cartons', template_id: tpl.id },
        { template_id: small.id, quantity: 3, label: 'Small boxes' },
      ],
      // A roomy budget: on a busy machine the default 2.1 s could end before the van is packed.
      options: { time_limit: 20 },
    };
    const est = await a.api('POST', '/v1/estimate', body);
    t.equal(est.body.valid, true);
    t.equal(est.body.items, 9, "the template's quantity is the default, the item's overrides it");

    const res = await a.api('POST', '/v1/pack?wait=60', body);
    t.equal(res.status, 200);
    t.equal(res.body.status, 'succeeded');
    const result = res.body.result;
    t.same(
      result.vehicles.map((v: { vehicle_id: string }) => v.vehicle_id),
      ['van-a'],
    );
    const v0 = result.vehicles[0];
    t.same([v0.name, v0.type, v0.length, v0.width, v0.height, v0.max_weight], ['Our van', 'truck', 400, 180, 190, 900]);
    const placements = v0.placements as {
      item_id: string;
      label: string;
      length: number;
      width: number;
      height: number;
    }[];
    t.equal(placements.length, 9);
    t.same(
      [...new Set(placements.map((p) => p.item_id))].sort(),
      ['cartons', small.id].sort(),
      'ids default to template_id',
    );
    t.same([...new Set(placements.map((p) => p.label))].sort(), ['Carton 60', 'Small boxes']);
    t.same(
      placements
        .filter((p) => p.item_id === 'cartons')
        .map((p) => [p.length, p.width, p.height].sort((x, y) => x - y))
        .at(0),
      [40, 40, 60],
    );
  },
);
