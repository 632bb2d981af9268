/**
 * Writes api/http/openapi/examples.json: a request and the real answer of every operation of the
 * OpenAPI document, captured from the service started in this process on a
 * temporary data dir with its demo organization. Request bodies come from examples/ (the pack
 * and estimate body is examples/eur-pallets-13-6m-trailer.json); the service's own origin in
 * links is replaced by https://packing.example.com. Run after a change of a response shape:
 *   node --import tsx scripts/capture-openapi-examples.ts
 * The OpenAPI test checks every example against its schema, so a stale file fails it.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { startService } from '../service/server.js';
import type { OperationExamples } from '../api/http/openapi/examples.js';

/** The fields of the answers the walk reads: a created resource's id, a job's status and viewer link. */
interface Answer {
  id: string;
  status: string;
  viewer_url: string;
}

const ROOT = new URL('..', import.meta.url);
const OUT = new URL('api/http/openapi/examples.json', ROOT);
const EXAMPLE_ORIGIN = 'https://packing.example.com';
/** Where the captured webhook endpoint points (a loopback receiver in the capture). */
const EXAMPLE_RECEIVER = 'https://erp.example.com';

export type { OperationExamples } from '../api/http/openapi/examples.js';

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'packing-openapi-examples-'));
  // A webhook receiver on loopback that accepts every delivery (private targets allowed here only).
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok'));
  });
  await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
  const receiverOrigin = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  const service = await startService({
    port: 0,
    host: '127.0.0.1',
    dataDir: dir,
    solverThreads: 1,
    log: pino({ level: 'silent' }),
    webhooks: { allowPrivateTargets: true, retryBaseMs: 50 },
  });
  const key = readFileSync(join(dir, 'demo-api-key'), 'utf8').trim();
  const out: Record<string, OperationExamples> = {};
  const api = async (
    operationId: string,
    method: string,
    path: string,
    body?: unknown,
    status?: number,
  ): Promise<Answer> => {
    const res = await fetch(service.url + path, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = (await res.text())
      .split(service.url)
      .join(EXAMPLE_ORIGIN)
      .split(receiverOrigin)
      .join(EXAMPLE_RECEIVER);
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    const answer = JSON.parse(text) as unknown;
    const entry = (out[operationId] ??= { responses: {} });
    if (body !== undefined) entry.request = body;
    entry.responses[String(status ?? res.status)] ??= answer;
    return answer as Answer;
  };
  /** Captures one more case of `operationId` (shown by name beside its first capture). */
  const alternative = async (
    operationId: string,
    name: string,
    summary: string,
    method: string,
    path: string,
    body?: unknown,
  ): Promise<void> => {
    const key = `${operationId}:${name}`;
    await api(key, method, path, body);
    const captured = out[key]!;
    delete out[key];
    const entry = (out[operationId] ??= { responses: {} });
    (entry.alternatives ??= []).push({ name, summary, ...captured });
  };
  try {
    const request = JSON.parse(
      readFileSync(new URL('examples/eur-pallets-13-6m-trailer.json', ROOT), 'utf8'),
    ) as Record<string, unknown>;
    await api('getHealth', 'GET', '/health');
    const hook = await api('createWebhookEndpoint', 'POST', '/v1/webhook_endpoints', {
      url: `${receiverOrigin}/hooks/packing`,
      events: ['job.succeeded', 'job.failed', 'job.canceled'],
    });
    const ex = out['createWebhookEndpoint'];
    if (ex)
      ex.request = {
        url: `${EXAMPLE_RECEIVER}/hooks/packing`,
        events: ['job.succeeded', 'job.failed', 'job.canceled'],
      };
    await api('estimatePackJob', 'POST', '/v1/estimate', request);
    const queued = await api('createPackJob', 'POST', '/v1/pack', request);
    const done = await api('getJob', 'GET', `/v1/jobs/${queued.id}?wait=60`);
    if (done.status !== 'succeeded') throw new Error(`the example job ended ${done.status}`);
    const viewer = new URL(done.viewer_url);
    await api('getPlanViewerData', 'GET', `${viewer.pathname}/plan.json${viewer.search}`);
    await api('createPackJob', 'POST', '/v1/pack?wait=60', { ...request, reference: 'FTL-2024-0613 Duisburg - Lyon' });
    const result = (await api('getJobResult', 'GET', `/v1/jobs/${queued.id}/result`)) as unknown as {
      vehicles: {
        placements: { item_id: string; instance: number; x: number; y: number; z: number; height: number }[];
      }[];
    };
    // Plan editing: the job's own result verifies; moved onto its neighbour, a pallet overlaps it.
    await api('verifyPlan', 'POST', '/v1/plans/verify', { request, result });
    out['verifyPlan']!.summary = "A job's result as it came: valid";
    const edited = structuredClone(result);
    const [first, second] = edited.vehicles[0]!.placements;
    Object.assign(second!, { x: first!.x, y: first!.y, z: first!.z });
    await alternative(
      'verifyPlan',
      'overlap',
      'The second pallet moved onto the first: valid false, rule overlap',
      'POST',
      '/v1/plans/verify',
      { request, result: edited },
    );
    // A plan revision: the unit with the highest top (nothing stands on it) taken off.
    const top = [...result.vehicles[0]!.placements].sort((a, b) => b.y + b.height - (a.y + a.height))[0]!;
    await api('createPlanRevision', 'POST', `/v1/jobs/${queued.id}/revisions`, {
      base_revision: 0,
      operations: [{ op: 'remove', item_id: top.item_id, instance: top.instance }],
    });
    await api('listPlanRevisions', 'GET', `/v1/jobs/${queued.id}/revisions`);
    await api('listJobs', 'GET', '/v1/jobs?limit=1');
    const slow = await api('createPackJob', 'POST', '/v1/pack', {
      ...request,
      reference: 'to cancel',
      options: { time_limit: 30 },
    });
    await api('cancelJob', 'DELETE', `/v1/jobs/${slow.id}`);
    await api('getLimits', 'GET', '/v1/limits');
    await api('getBalance', 'GET', '/v1/balance');
    await api('getUsage', 'GET', '/v1/usage?from=2026-11-01&to=2026-11-30');

    const vehicle = await api('createVehicle', 'POST', '/v1/vehicles', {
      name: 'Tautliner 13.6 m',
      type: 'trailer',
      length: 1360,
      width: 248,
      height: 270,
      max_weight: 24000,
    });
    await api('getVehicle', 'GET', `/v1/vehicles/${vehicle.id}`);
    await api('updateVehicle', 'PATCH', `/v1/vehicles/${vehicle.id}`, { max_weight: 22000 });
    await api('listVehicles', 'GET', '/v1/vehicles?limit=2');

    const template = await api('createTemplate', 'POST', '/v1/templates', {
      label: 'EUR pallet - mineral water',
      length: 120,
      width: 80,
      height: 150,
      weight: 880,
    });
    await api('getTemplate', 'GET', `/v1/templates/${template.id}`);
    await api('updateTemplate', 'PATCH', `/v1/templates/${template.id}`, { weight: 860 });
    await api('listTemplates', 'GET', '/v1/templates?limit=2');

    const project = await api('createProject', 'POST', '/v1/projects', {
      name: 'Duisburg - Lyon weekly',
      vehicles: [{ vehicle_id: 'rigid-7-5t', quantity: 1 }],
      items: [{ label: 'Carton 60x40x40', length: 60, width: 40, height: 40, weight: 12, quantity: 20 }],
    });
    await api('getProject', 'GET', `/v1/projects/${project.id}`);
    await api('updateProject', 'PATCH', `/v1/projects/${project.id}`, { name: 'Duisburg - Lyon, Mondays' });
    await api('listProjects', 'GET', '/v1/projects?limit=2');
    const projectJob = await api('packProject', 'POST', `/v1/projects/${project.id}/pack`);
    await api('getJob', 'GET', `/v1/jobs/${projectJob.id}?wait=60`);
    await api('packProject', 'POST', `/v1/projects/${project.id}/pack?wait=60`);

    await api('getWebhookEndpoint', 'GET', `/v1/webhook_endpoints/${hook.id}`);
    await api('listWebhookEndpoints', 'GET', '/v1/webhook_endpoints?limit=2');
    // Deliveries are made from the log after the jobs settle: wait for one answered attempt.
    for (let i = 0; ; i++) {
      const page = await fetch(`${service.url}/v1/webhook_endpoints/${hook.id}/deliveries?limit=2`, {
        headers: { authorization: `Bearer ${key}` },
      });
      const body = (await page.json()) as { data: { attempts?: unknown[] }[] };
      if (body.data.some((d) => (d.attempts?.length ?? 0) > 0)) break;
      if (i > 600) throw new Error('no webhook delivery attempt within 60 s');
      await new Promise((r) => setTimeout(r, 100));
    }
    await api('listWebhookDeliveries', 'GET', `/v1/webhook_endpoints/${hook.id}/deliveries?limit=2`);
    await api('deleteWebhookEndpoint', 'DELETE', `/v1/webhook_endpoints/${hook.id}`);
    await api('deleteVehicle', 'DELETE', `/v1/vehicles/${vehicle.id}`);
    await api('deleteTemplate', 'DELETE', `/v1/templates/${template.id}`);
    await api('deleteProject', 'DELETE', `/v1/projects/${project.id}`);
    writeFileSync(OUT, `${JSON.stringify(out, null, 2)}\n`);
    process.stdout.write(`wrote ${Object.keys(out).length} operations to api/http/openapi/examples.json\n`);
  } finally {
    await service.close();
    receiver.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
