/**
 * Another organization's resources are invisible (spec "What the service does" 7, Errors): on
 * every endpoint that takes an id, organization A gets 404 with the resource's own code for
 * organization B's jobs, vehicles, templates and projects; A's lists never show them; A's pack
 * requests and projects cannot name B's saved vehicles or templates; and B's records are left
 * as they were.
 */
import t, { type Test } from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { startService, type RunningService } from '../../service/server.js';
import { createApiKey, provisionOrganization } from '../../application/provision.js';
import { call } from '../helpers/service-process.js';
import { solverThreadModule } from '../helpers/compiled-service.js';

const dir = mkdtempSync(join(tmpdir(), 'packing-isolation-'));
let service: RunningService;
let a: string;
let b: string;
const mine: { job?: string; vehicle?: string; template?: string; project?: string } = {};

/** A new organization with every scope; returns its key. */
async function organization(name: string): Promise<string> {
  const now = new Date().toISOString();
  const o = await provisionOrganization(service.services.store, {
    name,
    ownerName: `${name} owner`,
    subscriptionCredits: 100,
    expiresAt: '2099-01-01T00:00:00.000Z',
    now,
  });
  const k = await createApiKey(service.services.store, { orgId: o.orgId, memberId: o.ownerId, name, now });
  await service.services.projections.waitFor(k.position);
  return k.secret;
}

const cartons = [{ id: 'carton', length: 60, width: 40, height: 40, weight: 12, quantity: 10 }];

t.before(async () => {
  service = await startService({
    solverThreadModule: solverThreadModule(),
    port: 0,
    host: '127.0.0.1',
    dataDir: dir,
    solverThreads: 1,
    log: pino({ level: 'silent' }),
  });
  a = await organization('A');
  b = await organization('B');
  const job = await call(service.url, b, 'POST', '/v1/pack?wait=30', {
    vehicles: [{ vehicle_id: 'rigid-7-5t' }],
    items: cartons,
  });
  mine.job = job.body.id;
  mine.vehicle = (
    await call(service.url, b, 'POST', '/v1/vehicles', {
      name: 'B trailer',
      type: 'trailer',
      length: 1200,
      width: 245,
      height: 260,
      max_weight: 20_000,
    })
  ).body.id;
  mine.template = (
    await call(service.url, b, 'POST', '/v1/templates', {
      label: 'B carton',
      length: 60,
      width: 40,
      height: 40,
      weight: 12,
    })
  ).body.id;
  mine.project = (
    await call(service.url, b, 'POST', '/v1/projects', {
      name: 'B project',
      vehicles: [{ vehicle_id: 'rigid-7-5t', quantity: 1 }],
      items: [{ label: 'Box', length: 50, width: 50, height: 50, weight: 5 }],
    })
  ).body.id;
});
t.teardown(async () => {
  await service.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A 404 envelope with `code` whose request_id is the header's. */
function invisible(t: Test, res: Awaited<ReturnType<typeof call>>, code: string, what: string): void {
  t.equal(res.status, 404, `${what}: 404`);
  t.equal(res.body?.error?.code, code, `${what}: ${code}`);
  t.equal(res.body?.error?.request_id, res.headers.get('x-request-id'), `${what}: request_id`);
}

t.test("B's records exist", async (t) => {
  t.match(mine, { job: /^job_/, vehicle: /^veh_/, template: /^tpl_/, project: /^prj_/ });
  t.equal((await call(service.url, b, 'GET', `/v1/jobs/${mine.job}`)).body.status, 'succeeded');
});

t.test('jobs: GET, GET result and DELETE answer 404 job_not_found; the list leaves them out', async (t) => {
  invisible(t, await call(service.url, a, 'GET', `/v1/jobs/${mine.job}`), 'job_not_found', 'GET job');
  invisible(
    t,
    await call(service.url, a, 'GET', `/v1/jobs/${mine.job}?include=result&wait=1`),
    'job_not_found',
    'GET job with include and wait',
  );
  invisible(t, await call(service.url, a, 'GET', `/v1/jobs/${mine.job}/result`), 'job_not_found', 'GET result');
  invisible(t, await call(service.url, a, 'DELETE', `/v1/jobs/${mine.job}`), 'job_not_found', 'DELETE job');
  const list = await call(service.url, a, 'GET', `/v1/jobs?q=${mine.job}`);
  t.equal(list.status, 200);
  t.same(list.body.data, [], "A lists none of B's jobs");
  t.same((await call(service.url, a, 'GET', '/v1/jobs')).body.data, [], 'A has no jobs at all');
});

t.test(
  'vehicles: GET, PATCH, DELETE answer 404 vehicle_not_found; the list and pack requests cannot see them',
  async (t) => {
    invisible(t, await call(service.url, a, 'GET', `/v1/vehicles/${mine.vehicle}`), 'vehicle_not_found', 'GET vehicle');
    invisible(
      t,
      await call(service.url, a, 'PATCH', `/v1/vehicles/${mine.vehicle}`, { name: 'taken' }),
      'vehicle_not_found',
      'PATCH vehicle',
    );
    invisible(
      t,
      await call(service.url, a, 'DELETE', `/v1/vehicles/${mine.vehicle}`),
      'vehicle_not_found',
      'DELETE vehicle',
    );
    const list = await call(service.url, a, 'GET', '/v1/vehicles?limit=100');
    t.notOk(
      list.body.data.some((v: { id: string }) => v.id === mine.vehicle),
      "A's list leaves B's vehicle out",
    );
    t.ok(
      list.body.data.every((v: { preset?: boolean }) => v.preset === true),
      'A sees only the presets',
    );
    const pack = await call(service.url, a, 'POST', '/v1/pack', {
      vehicles: [{ vehicle_id: mine.vehicle }],
      items: cartons,
    });
    t.equal(pack.status, 422);
    t.match(
      pack.body.error.details,
      [{ path: 'vehicles[0].vehicle_id', code: 'unknown_vehicle' }],
      "a pack request cannot name B's vehicle",
    );
    const project = await call(service.url, a, 'POST', '/v1/projects', {
      name: 'A',
      vehicles: [{ vehicle_id: mine.vehicle, quantity: 1 }],
      items: [],
    });
    t.equal(project.status, 422);
    t.ok(
      project.body.error.details.some((d: { code: string }) => d.code === 'unknown_vehicle'),
      'nor a project',
    );
  },
);

t.test(
  'templates: GET, PATCH, DELETE answer 404 template_not_found; the list and pack requests cannot see them',
  async (t) => {
    invisible(
      t,
      await call(service.url, a, 'GET', `/v1/templates/${mine.template}`),
      'template_not_found',
      'GET template',
    );
    invisible(
      t,
      await call(service.url, a, 'PATCH', `/v1/templates/${mine.template}`, { weight: 1 }),
      'template_not_found',
      'PATCH template',
    );
    invisible(
      t,
      await call(service.url, a, 'DELETE', `/v1/templates/${mine.template}`),
      'template_not_found',
      'DELETE template',
    );
    t.same((await call(service.url, a, 'GET', '/v1/templates')).body.data, [], 'A lists no templates');
    const pack = await call(service.url, a, 'POST', '/v1/pack', {
      vehicles: [{ vehicle_id: 'rigid-7-5t' }],
      items: [{ template_id: mine.template }],
    });
    t.equal(pack.status, 422);
    t.match(
      pack.body.error.details,
      [{ path: 'items[0].template_id', code: 'unknown_template' }],
      "a pack request cannot name B's template",
    );
  },
);

t.test('projects: GET, PATCH, DELETE and pack answer 404 project_not_found; the list leaves them out', async (t) => {
  invisible(t, await call(service.url, a, 'GET', `/v1/projects/${mine.project}`), 'project_not_found', 'GET project');
  invisible(
    t,
    await call(service.url, a, 'PATCH', `/v1/projects/${mine.project}`, { name: 'taken' }),
    'project_not_found',
    'PATCH project',
  );
  invisible(
    t,
    await call(service.url, a, 'DELETE', `/v1/projects/${mine.project}`),
    'project_not_found',
    'DELETE project',
  );
  invisible(
    t,
    await call(service.url, a, 'POST', `/v1/projects/${mine.project}/pack`),
    'project_not_found',
    'POST project pack',
  );
  t.same((await call(service.url, a, 'GET', '/v1/projects')).body.data, [], 'A lists no projects');
});

t.test("B's records are unchanged and still B's", async (t) => {
  t.match((await call(service.url, b, 'GET', `/v1/jobs/${mine.job}/result`)).body, { job_id: mine.job });
  t.match((await call(service.url, b, 'GET', `/v1/vehicles/${mine.vehicle}`)).body, {
    id: mine.vehicle,
    name: 'B trailer',
  });
  t.match((await call(service.url, b, 'GET', `/v1/templates/${mine.template}`)).body, {
    id: mine.template,
    weight: 12,
  });
  t.match((await call(service.url, b, 'GET', `/v1/projects/${mine.project}`)).body, {
    id: mine.project,
    name: 'B project',
  });
  const balance = await call(service.url, a, 'GET', '/v1/balance');
  t.equal(balance.body.available_credits, 100, 'A was charged nothing');
});
