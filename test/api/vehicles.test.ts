/**
 * Saved vehicles on the real embedded service (in process, temporary data dir, free port): CRUD
 * with exact records, authors, validation answers, presets, paging with q and created_by, and
 * another organization's ids.
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
import { VEHICLE_PRESETS } from '../../domain/vehicle/presets.js';
import { call } from '../helpers/service-process.js';
import { serviceActor } from '../../domain/decider/actor.js';
import { solverThreadModule } from '../helpers/compiled-service.js';

const dir = mkdtempSync(join(tmpdir(), 'packing-vehicles-'));
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

/** A new organization whose owner is `ownerName`, with a key of every scope. */
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
  const k = await createApiKey(service.services.store, { orgId: o.orgId, memberId: o.ownerId, name: 't', now });
  await service.services.projections.waitFor(k.position);
  const api = (method: string, path: string, body?: unknown, raw?: string) =>
    call(service.url, k.secret, method, path, body, raw);
  return { ...o, key: k.secret, api, owner: { id: o.ownerId, name: ownerName } };
}

const truck = { name: 'Our 7.5 t', type: 'truck', length: 600, width: 240, height: 230, max_weight: 2500 };

t.test('create, read, change and delete a vehicle; records are exact and show their authors', async (t) => {
  const a = await org('Olga');
  const body = {
    ...truck,
    floor_load_capacity: 1500,
    blocked_areas: [{ x: 0, z: 0, length: 50, width: 40 }],
    cog_range_x: 100,
  };
  const created = await a.api('POST', '/v1/vehicles', body);
  t.equal(created.status, 201);
  const v = created.body;
  t.match(v.id, /^veh_[a-z0-9]{24}$/);
  t.match(v.created_at, ISO);
  t.same(v, {
    id: v.id,
    object: 'vehicle',
    preset: false,
    name: 'Our 7.5 t',
    type: 'truck',
    length: 600,
    width: 240,
    height: 230,
    max_weight: 2500,
    floor_load_capacity: 1500,
    blocked_areas: [{ x: 0, z: 0, length: 50, width: 40 }],
    cog_range_x: 100,
    created_at: v.created_at,
    updated_at: v.created_at,
    created_by: a.owner,
    updated_by: a.owner,
  });
  t.same(Object.keys(v).slice(0, 3), ['id', 'object', 'preset']);
  t.same((await a.api('GET', `/v1/vehicles/${v.id}`)).body, v, 'GET shows the created record');

  // A second member changes it: updated_by is that member, created_by stays.
  const now = new Date().toISOString();
  const mia = newId('usr');
  await handleCommand(service.services.store, orgStream(a.orgId), organizationDecider, {
    type: 'AddMember',
    data: { userId: mia, name: 'Mia', role: 'member' },
    metadata: { now, actor: serviceActor('admin') },
  });
  const miaKey = await createApiKey(service.services.store, { orgId: a.orgId, memberId: mia, name: 'mia', now });
  await service.services.projections.waitFor(miaKey.position);
  const patched = await call(service.url, miaKey.secret, 'PATCH', `/v1/vehicles/${v.id}`, {
    name: 'Renamed',
    height: 240,
  });
  t.equal(patched.status, 200);
  t.same(patched.body, {
    ...v,
    name: 'Renamed',
    height: 240,
    updated_at: patched.body.updated_at,
    updated_by: { id: mia, name: 'Mia' },
  });
  t.ok(patched.body.updated_at >= v.updated_at);
  t.same((await a.api('GET', `/v1/vehicles/${v.id}`)).body, patched.body, 'GET shows the change');

  const unchanged = await a.api('PATCH', `/v1/vehicles/${v.id}`, { name: 'Renamed' });
  t.same(unchanged.body, patched.body, 'a PATCH that changes nothing keeps updated_at and updated_by');

  const deleted = await a.api('DELETE', `/v1/vehicles/${v.id}`);
  t.equal(deleted.status, 200);
  t.same(deleted.body, { id: v.id, object: 'vehicle', deleted: true });
  for (const [method, body] of [['GET'], ['PATCH', { name: 'x' }], ['DELETE']] as const) {
    const gone = await a.api(method, `/v1/vehicles/${v.id}`, body);
    t.equal(gone.status, 404, `${method} after delete`);
    t.equal(gone.body.error.code, 'vehicle_not_found');
  }
  const est = await a.api('POST', '/v1/estimate', {
    vehicles: [{ vehicle_id: v.id }],
    items: [{ length: 10, width: 10, height: 10, weight: 1 }],
  });
  t.same(est.body.errors, [
    {
      path: 'vehicles[0].vehicle_id',
      code: 'unknown_vehicle',
      message: `no preset or own vehicle has the id "${v.id}"`,
    },
  ]);
});

t.test('POST lists every problem; a wrong JSON type answers 400 with all of them', async (t) => {
  const a = await org();
  const bad = await a.api('POST', '/v1/vehicles', {
    name: '',
    type: 'ship',
    length: 100,
    height: 0,
    max_weight: 10,
    aux_deck: true,
    aux_deck_height: 50,
    blocked_areas: [{ x: 90, z: 0, length: 20, width: 10 }],
    axle_positions: [10, 20],
    axle_max_loads: [1000],
    quantity: 2,
    vehicle_id: 'semi-trailer-13-6',
  });
  t.equal(bad.status, 422);
  t.equal(bad.body.error.code, 'validation_failed');
  t.equal(bad.body.error.request_id, bad.headers.get('x-request-id'));
  const got = bad.body.error.details.map((d: { path: string; code: string }) => `${d.path} ${d.code}`).sort();
  t.same(got, [
    'aux_deck_max_weight required',
    'axle_max_loads invalid_value',
    'blocked_areas[0].length out_of_range',
    'height out_of_range',
    'name out_of_range',
    'quantity unknown_field',
    'type type_not_allowed',
    'vehicle_id unknown_field',
    'width required',
  ]);

  const typed = await a.api('POST', '/v1/vehicles', { ...truck, length: '600', name: 7, width: null, height: -1 });
  t.equal(typed.status, 400);
  t.equal(typed.body.error.code, 'invalid_json');
  t.same(typed.body.error.details.map((d: { path: string; code: string }) => `${d.path} ${d.code}`).sort(), [
    'height out_of_range',
    'length invalid_json',
    'name invalid_json',
    'width invalid_json',
  ]);
  for (const raw of ['[1]', '"x"', '{bad']) {
    const r = await a.api('POST', '/v1/vehicles', undefined, raw);
    t.equal(r.status, 400, raw);
    t.equal(r.body.error.code, 'invalid_json');
  }
  const aircraft = await a.api('POST', '/v1/vehicles', { ...truck, type: 'aircraft' });
  t.same(aircraft.body.error.details, [
    {
      path: 'type',
      code: 'type_not_allowed',
      message:
        'vehicle type "aircraft" is not enabled for the organization; allowed: truck, trailer, container, pallet',
    },
  ]);
});

t.test('PATCH checks the types sent and the record after the change as a whole', async (t) => {
  const a = await org();
  const v = (
    await a.api('POST', '/v1/vehicles', { ...truck, aux_deck: true, aux_deck_height: 120, aux_deck_max_weight: 800 })
  ).body;
  const lower = await a.api('PATCH', `/v1/vehicles/${v.id}`, { height: 100 });
  t.equal(lower.status, 422);
  t.same(lower.body.error.details, [
    { path: 'aux_deck_height', code: 'out_of_range', message: 'must be below the vehicle height 100 cm, got 120' },
  ]);
  const nul = await a.api('PATCH', `/v1/vehicles/${v.id}`, { aux_deck_height: null, colour: 'red' });
  t.equal(nul.status, 400);
  t.same(nul.body.error.details.map((d: { path: string; code: string }) => `${d.path} ${d.code}`).sort(), [
    'aux_deck_height invalid_json',
    'colour unknown_field',
  ]);
  const typeNo = await a.api('PATCH', `/v1/vehicles/${v.id}`, { type: 'ship' });
  t.equal(typeNo.status, 422);
  t.equal(typeNo.body.error.details[0].code, 'type_not_allowed');
  t.same((await a.api('GET', `/v1/vehicles/${v.id}`)).body, v, 'refused changes change nothing');
});

t.test('presets: readable by slug, listed, read-only', async (t) => {
  const a = await org();
  const semi = await a.api('GET', '/v1/vehicles/semi-trailer-13-6');
  t.equal(semi.status, 200);
  t.same(semi.body, {
    id: 'semi-trailer-13-6',
    object: 'vehicle',
    preset: true,
    name: 'Semi-trailer 13.6 m (tautliner)',
    type: 'trailer',
    length: 1360,
    width: 248,
    height: 270,
    max_weight: 24000,
    created_at: null,
    updated_at: null,
    created_by: null,
    updated_by: null,
  });
  for (const method of ['PATCH', 'DELETE']) {
    const r = await a.api(method, '/v1/vehicles/container-40-hc', method === 'PATCH' ? { name: 'mine' } : undefined);
    t.equal(r.status, 403, method);
    t.equal(r.body.error.code, 'preset_read_only');
  }
  t.equal((await a.api('GET', '/v1/vehicles/container-40-hc')).body.name, "40' high-cube container");
  const missing = await a.api('GET', '/v1/vehicles/no-such-thing');
  t.equal(missing.status, 404);
  t.equal(missing.body.error.code, 'vehicle_not_found');
});

t.test('list: own vehicles newest first, then presets; cursor paging, q and created_by', async (t) => {
  const a = await org();
  const records: { id: string; created_at: string }[] = [];
  for (const name of ['Alpha box', 'Bravo container', 'Charlie box']) {
    records.push(
      (
        await a.api('POST', '/v1/vehicles', {
          ...truck,
          name,
          type: name.includes('container') ? 'container' : 'truck',
        })
      ).body,
    );
  }
  // Newest first; records made within the same millisecond come by id, descending.
  const newest = [...records]
    .sort((x, y) => (x.created_at === y.created_at ? (x.id < y.id ? 1 : -1) : x.created_at < y.created_at ? 1 : -1))
    .map((r) => r.id);
  const own = records.map((r) => r.id);
  const inOrder = (...ids: string[]) => newest.filter((id) => ids.includes(id));
  const seen: string[] = [];
  let cursor = '';
  let pages = 0;
  do {
    const res = await a.api('GET', `/v1/vehicles?limit=4${cursor ? `&cursor=${cursor}` : ''}`);
    t.equal(res.status, 200);
    t.ok(res.body.data.length <= 4);
    seen.push(...res.body.data.map((v: { id: string }) => v.id));
    cursor = res.body.next_cursor;
    pages++;
  } while (cursor !== '' && pages < 10);
  t.same(
    seen,
    newest.concat(VEHICLE_PRESETS.map((p) => p.id)),
    'newest own first, then presets in catalog order, each once',
  );
  t.equal(pages, Math.ceil(seen.length / 4));

  const q = await a.api('GET', '/v1/vehicles?q=CONTAINER');
  t.same(
    q.body.data.map((v: { id: string }) => v.id),
    [own[1], 'container-20-dry', 'container-40-dry', 'container-40-hc'],
  );
  t.equal(q.body.next_cursor, '');
  const byId = await a.api('GET', `/v1/vehicles?q=${own[0]}`);
  t.same(
    byId.body.data.map((v: { id: string }) => v.id),
    [own[0]],
  );
  const mine = await a.api('GET', '/v1/vehicles?created_by=me');
  t.same(
    mine.body.data.map((v: { id: string }) => v.id),
    newest,
    'created_by leaves the presets out',
  );
  t.same(
    (await a.api('GET', `/v1/vehicles?created_by=${a.ownerId}&q=box`)).body.data.map((v: { id: string }) => v.id),
    inOrder(own[0]!, own[2]!),
  );
  t.same((await a.api('GET', '/v1/vehicles?created_by=usr_nobody')).body.data, []);
  const badQuery = await a.api('GET', '/v1/vehicles?limit=0&cursor=zz&created_by=bob');
  t.equal(badQuery.status, 422);
  t.same(
    badQuery.body.error.details.map((d: { path: string }) => d.path),
    ['limit', 'cursor', 'created_by'],
  );
});

t.test("another organization's vehicles are invisible", async (t) => {
  const a = await org();
  const b = await org();
  const v = (await a.api('POST', '/v1/vehicles', truck)).body;
  for (const [method, body] of [['GET'], ['PATCH', { name: 'stolen' }], ['DELETE']] as const) {
    const r = await b.api(method, `/v1/vehicles/${v.id}`, body);
    t.equal(r.status, 404, method);
    t.equal(r.body.error.code, 'vehicle_not_found');
  }
  t.same((await b.api('GET', '/v1/vehicles?created_by=me')).body.data, []);
  t.notOk((await b.api('GET', '/v1/vehicles?limit=100')).body.data.some((x: { id: string }) => x.id === v.id));
  const est = await b.api('POST', '/v1/estimate', {
    vehicles: [{ vehicle_id: v.id }],
    items: [{ length: 10, width: 10, height: 10, weight: 1 }],
  });
  t.equal(est.body.valid, false);
  t.same(
    est.body.errors.map((d: { path: string; code: string }) => `${d.path} ${d.code}`),
    ['vehicles[0].vehicle_id unknown_vehicle'],
  );
  t.same((await a.api('GET', `/v1/vehicles/${v.id}`)).body, v, 'untouched by the other organization');
});
