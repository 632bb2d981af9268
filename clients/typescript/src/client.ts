/**
 * PackingClient: every operation of the service's OpenAPI document as a method named by its
 * operationId, typed with the generated types (generated/openapi.ts), sent with
 * the spec's retry rules (transport.ts); plus `pack(request, {wait})` returning the finished job,
 * cursor iterators for every list and `downloadPdf`. Errors: errors.ts.
 */
import { randomUUID } from 'node:crypto';
import type {
  Balance,
  Deleted,
  Estimate,
  Job,
  JobList,
  Limits,
  Operations,
  PackRequest,
  PlanRevisionCreated,
  PlanRevisionInput,
  PlanRevisionList,
  PlanRevision,
  PlanVerification,
  PlanVerifyRequest,
  Project,
  ProjectInput,
  ProjectList,
  ProjectPatch,
  Result,
  SavedVehicle,
  Template,
  TemplateInput,
  TemplateList,
  TemplatePatch,
  Usage,
  VehicleInput,
  VehicleList,
  VehiclePatch,
  ViewerPlan,
  WebhookEndpointInput,
  WebhookEndpoint,
  WebhookEndpointList,
  WebhookDelivery,
  WebhookDeliveryList,
} from './generated/openapi.js';
import { eachRecord } from './paging.js';
import { Transport, type Request, type TransportOptions } from './transport.js';

/** Default service address. */
export const DEFAULT_BASE_URL = 'http://localhost:8080';

/** Statuses after which a job does not change any more. */
export const FINAL_STATUSES: ReadonlySet<Job['status']> = new Set(['succeeded', 'failed', 'canceled']);

/** Options of a PackingClient; see TransportOptions (baseUrl defaults to http://localhost:8080). */
export type ClientOptions = Omit<TransportOptions, 'baseUrl'> & { baseUrl?: string };

/** The query parameters of an operation ({} when it has none). */
export type QueryOf<O extends keyof Operations> = [Operations[O]['query']] extends [never]
  ? Record<string, never>
  : Operations[O]['query'];

/** Options of a job-creating call (POST /v1/pack, POST /v1/projects/{id}/pack). */
export interface CreateJobOptions {
  /** Seconds the service may wait for the job to end before answering (0–60). */
  wait?: number;
  /** Replays the original job within 24 h; generated when not given, the same on every retry. */
  idempotencyKey?: string;
  signal?: AbortSignal;
}

/** Options of pack() and packProject's waiting form. */
export interface PackOptions {
  /** Wait until the job ends and return the final job (result inlined when succeeded). Default false. */
  wait?: boolean;
  idempotencyKey?: string;
  /** Called with the job after the POST and after every poll while it runs. */
  onProgress?: (job: Job) => void;
  /** Seconds each poll may wait on the service (1–60, default 10); smaller means more progress calls. */
  pollSeconds?: number;
  signal?: AbortSignal;
}

const path = (template: string, params: Record<string, string>): string =>
  template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));

/** A client of the packing service for one API key. */
export class PackingClient {
  readonly transport: Transport;

  constructor(options: ClientOptions) {
    this.transport = new Transport({ ...options, baseUrl: options.baseUrl ?? DEFAULT_BASE_URL });
  }

  private async send<T>(request: Request): Promise<T> {
    return (await this.transport.send<T>(request)).body;
  }

  private read<T>(p: string, query?: Request['query'], signal?: AbortSignal): Promise<T> {
    return this.send<T>({ method: 'GET', path: p, query, repeatable: true, signal });
  }

  // --- Service and docs (no key) ---

  /** GET /health: `{status, position}`; no key. */
  getHealth(): Promise<Operations['getHealth']['responses'][200]> {
    return this.send({ method: 'GET', path: '/health', auth: false, repeatable: true });
  }
  /** GET /metrics: Prometheus text; no key. */
  getMetrics(): Promise<string> {
    return this.send({ method: 'GET', path: '/metrics', auth: false, repeatable: true, as: 'text' });
  }
  /** GET /openapi.json: the OpenAPI 3.1 document; no key. */
  getOpenApi(): Promise<Record<string, unknown>> {
    return this.send({ method: 'GET', path: '/openapi.json', auth: false, repeatable: true });
  }
  /** GET /docs: the reference docs page (HTML); no key. */
  getDocs(): Promise<string> {
    return this.send({ method: 'GET', path: '/docs', auth: false, repeatable: true, as: 'text' });
  }

  // --- Jobs ---

  /**
   * POST /v1/pack: validates, prices and queues a job (202), or with `wait` answers the ended job
   * (200). The Idempotency-Key (generated when not given) is the same on every retry, so one job
   * is created however many retries it takes. Throws ValidationError (422), InsufficientCreditsError…
   */
  createPackJob(request: PackRequest, options: CreateJobOptions = {}): Promise<Job> {
    return this.send({
      method: 'POST',
      path: '/v1/pack',
      query: { wait: options.wait },
      body: request,
      headers: { 'idempotency-key': options.idempotencyKey ?? randomUUID() },
      repeatable: true,
      signal: options.signal,
    });
  }
  /** POST /v1/estimate: validation and price of a request, free (never throws for an invalid request: `valid: false`). */
  estimatePackJob(request: PackRequest): Promise<Estimate> {
    return this.send({ method: 'POST', path: '/v1/estimate', body: request, repeatable: true });
  }
  /**
   * POST /v1/plans/verify: checks a plan (a job's Result, typically edited) against its request,
   * free; a broken rule answers `valid: false` with the problems, never an error. Only each
   * vehicle's `vehicle_id`, `copy` and units (`item_id`, `instance`, `x`, `y`, `z`, `orientation`)
   * and the unplaced `reason`s are read; `result` of the answer is the rebuilt plan.
   */
  verifyPlan(request: PackRequest, result: Result | PlanVerifyRequest['result']): Promise<PlanVerification> {
    return this.send({ method: 'POST', path: '/v1/plans/verify', body: { request, result }, repeatable: true });
  }
  /** GET /v1/jobs: one page of jobs, newest first (see iterateJobs). */
  listJobs(query: QueryOf<'listJobs'> = {}): Promise<JobList> {
    return this.read('/v1/jobs', query);
  }
  /** GET /v1/jobs/{id}; `wait` (s, ≤ 60) holds the answer until the job ends; `include: 'result'` inlines the result. */
  getJob(id: string, query: QueryOf<'getJob'> = {}, signal?: AbortSignal): Promise<Job> {
    return this.read(path('/v1/jobs/{id}', { id }), query, signal);
  }
  /** DELETE /v1/jobs/{id}: cancels a queued or running job. Throws ConflictError `job_already_finished`. */
  cancelJob(id: string): Promise<Job> {
    return this.send({ method: 'DELETE', path: path('/v1/jobs/{id}', { id }), repeatable: true });
  }
  /**
   * GET /v1/jobs/{id}/result; `revision` (≥ 1) answers that plan revision's Result. Throws
   * ConflictError `job_not_finished`, `job_failed`…, NotFoundError `result_expired` or `not_found`
   * (no such revision).
   */
  getJobResult(id: string, query: QueryOf<'getJobResult'> = {}): Promise<Result> {
    return this.read(path('/v1/jobs/{id}/result', { id }), query);
  }
  /**
   * POST /v1/jobs/{id}/revisions: saves the edit of the job's latest plan revision (`base_revision`)
   * as the next one, checked by the verifier. Not retried (a repeat after a lost answer is refused
   * as stale). Throws ConflictError `conflict` (the base is not the latest), ValidationError (the
   * edited plan breaks a rule: one detail per problem).
   */
  createPlanRevision(id: string, input: PlanRevisionInput): Promise<PlanRevisionCreated> {
    return this.send({ method: 'POST', path: path('/v1/jobs/{id}/revisions', { id }), body: input, repeatable: false });
  }
  /** GET /v1/jobs/{id}/revisions: one page of the job's plan revisions, newest first (see iteratePlanRevisions). */
  listPlanRevisions(id: string, query: QueryOf<'listPlanRevisions'> = {}): Promise<PlanRevisionList> {
    return this.read(path('/v1/jobs/{id}/revisions', { id }), query);
  }
  /**
   * GET /v1/jobs/{id}/loading_list: the units in loading order, then the unplaced ones — CSV text
   * (default, `format: 'csv'`) or the .xlsx bytes (`format: 'xlsx'`). Throws as getJobResult.
   */
  getJobLoadingList(id: string, query?: { format?: 'csv' }): Promise<string>;
  getJobLoadingList(id: string, query: { format: 'xlsx' }): Promise<Uint8Array>;
  getJobLoadingList(id: string, query: QueryOf<'getJobLoadingList'> = {}): Promise<string | Uint8Array> {
    return this.send({
      method: 'GET',
      path: path('/v1/jobs/{id}/loading_list', { id }),
      query,
      repeatable: true,
      as: query.format === 'xlsx' ? 'bytes' : 'text',
    });
  }
  /** GET /plans/{file}: the plan PDF behind a job's signed `pdf_url` (no key), as bytes. */
  getPlanPdf(pdfUrl: string): Promise<Uint8Array> {
    return this.send({ method: 'GET', path: pdfUrl, auth: false, repeatable: true, as: 'bytes' });
  }
  /** GET /viewer/{job}: the 3D viewer page behind a job's signed `viewer_url` (no key), as HTML. */
  getPlanViewer(viewerUrl: string): Promise<string> {
    return this.send({ method: 'GET', path: viewerUrl, auth: false, repeatable: true, as: 'text' });
  }
  /** GET /viewer/{job}/plan.json: the viewer's data behind a job's signed `viewer_url` (no key). */
  getPlanViewerData(viewerUrl: string): Promise<ViewerPlan> {
    const url = new URL(viewerUrl);
    url.pathname = `${url.pathname}/plan.json`;
    return this.send({ method: 'GET', path: url.toString(), auth: false, repeatable: true });
  }

  /**
   * Creates a job (POST /v1/pack, one Idempotency-Key for all retries) and, with `wait`, follows
   * it (GET /v1/jobs/{id}?wait=…&include=result) until it is succeeded, failed or canceled,
   * calling `onProgress` on the way. Returns the job: final (result inlined when succeeded) with
   * `wait`, as created without. A failed or canceled job is returned, not thrown.
   */
  async pack(request: PackRequest, options: PackOptions = {}): Promise<Job> {
    const created = await this.createPackJob(request, {
      idempotencyKey: options.idempotencyKey ?? randomUUID(),
      ...(options.wait ? { wait: Math.min(options.pollSeconds ?? 10, 60) } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    return options.wait ? this.waitForJob(created, options) : created;
  }

  /** Polls `job` until it is final (see pack); returns the final job. */
  async waitForJob(job: Job, options: Pick<PackOptions, 'onProgress' | 'pollSeconds' | 'signal'> = {}): Promise<Job> {
    const wait = Math.max(1, Math.min(options.pollSeconds ?? 10, 60));
    let current = job;
    options.onProgress?.(current);
    while (!FINAL_STATUSES.has(current.status)) {
      options.signal?.throwIfAborted();
      current = await this.getJob(current.id, { wait, include: 'result' }, options.signal);
      options.onProgress?.(current);
    }
    return current;
  }

  /** Every job matching `query`, newest first, across all pages. */
  iterateJobs(query: Omit<QueryOf<'listJobs'>, 'cursor'> = {}): AsyncGenerator<Job, void, undefined> {
    return eachRecord((cursor) => this.listJobs({ ...query, ...(cursor ? { cursor } : {}) }));
  }
  /** Every plan revision of a job, newest first, page after page. */
  iteratePlanRevisions(
    id: string,
    query: Omit<QueryOf<'listPlanRevisions'>, 'cursor'> = {},
  ): AsyncGenerator<PlanRevision, void, undefined> {
    return eachRecord((cursor) => this.listPlanRevisions(id, { ...query, ...(cursor ? { cursor } : {}) }));
  }

  /** The plan PDF of a succeeded job (its signed `pdf_url`), as bytes. Throws NotFoundError when the link has expired. */
  downloadPdf(job: Pick<Job, 'pdf_url' | 'id'>): Promise<Uint8Array> {
    if (!job.pdf_url) throw new TypeError(`job ${job.id} has no pdf_url (not succeeded, or past retention)`);
    return this.getPlanPdf(job.pdf_url);
  }

  // --- Account ---

  /** GET /v1/limits: the organization's effective limits. */
  getLimits(): Promise<Limits> {
    return this.read('/v1/limits');
  }
  /** GET /v1/balance: available, subscription, purchased and reserved credits. */
  getBalance(): Promise<Balance> {
    return this.read('/v1/balance');
  }
  /** GET /v1/usage: jobs, compute and credits per day or in total over `from`…`to`. */
  getUsage(query: QueryOf<'getUsage'> = {}): Promise<Usage> {
    return this.read('/v1/usage', query);
  }

  // --- Vehicles ---

  /** GET /v1/vehicles: one page of saved vehicles (presets included). */
  listVehicles(query: QueryOf<'listVehicles'> = {}): Promise<VehicleList> {
    return this.read('/v1/vehicles', query);
  }
  /** Every vehicle across all pages. */
  iterateVehicles(query: Omit<QueryOf<'listVehicles'>, 'cursor'> = {}): AsyncGenerator<SavedVehicle, void, undefined> {
    return eachRecord((cursor) => this.listVehicles({ ...query, ...(cursor ? { cursor } : {}) }));
  }
  /** POST /v1/vehicles (not retried after a lost connection: it could create two). */
  createVehicle(input: VehicleInput): Promise<SavedVehicle> {
    return this.send({ method: 'POST', path: '/v1/vehicles', body: input, repeatable: false });
  }
  /** GET /v1/vehicles/{id}. */
  getVehicle(id: string): Promise<SavedVehicle> {
    return this.read(path('/v1/vehicles/{id}', { id }));
  }
  /** PATCH /v1/vehicles/{id}. Throws PermissionError `preset_read_only` on presets. */
  updateVehicle(id: string, patch: VehiclePatch): Promise<SavedVehicle> {
    return this.send({ method: 'PATCH', path: path('/v1/vehicles/{id}', { id }), body: patch, repeatable: true });
  }
  /** DELETE /v1/vehicles/{id}. */
  deleteVehicle(id: string): Promise<Deleted> {
    return this.send({ method: 'DELETE', path: path('/v1/vehicles/{id}', { id }), repeatable: true });
  }

  // --- Templates ---

  /** GET /v1/templates: one page of saved cargo items. */
  listTemplates(query: QueryOf<'listTemplates'> = {}): Promise<TemplateList> {
    return this.read('/v1/templates', query);
  }
  /** Every template across all pages. */
  iterateTemplates(query: Omit<QueryOf<'listTemplates'>, 'cursor'> = {}): AsyncGenerator<Template, void, undefined> {
    return eachRecord((cursor) => this.listTemplates({ ...query, ...(cursor ? { cursor } : {}) }));
  }
  /** POST /v1/templates (not retried after a lost connection). */
  createTemplate(input: TemplateInput): Promise<Template> {
    return this.send({ method: 'POST', path: '/v1/templates', body: input, repeatable: false });
  }
  /** GET /v1/templates/{id}. */
  getTemplate(id: string): Promise<Template> {
    return this.read(path('/v1/templates/{id}', { id }));
  }
  /** PATCH /v1/templates/{id}. */
  updateTemplate(id: string, patch: TemplatePatch): Promise<Template> {
    return this.send({ method: 'PATCH', path: path('/v1/templates/{id}', { id }), body: patch, repeatable: true });
  }
  /** DELETE /v1/templates/{id}. */
  deleteTemplate(id: string): Promise<Deleted> {
    return this.send({ method: 'DELETE', path: path('/v1/templates/{id}', { id }), repeatable: true });
  }

  // --- Projects ---

  /** GET /v1/projects: one page of projects. */
  listProjects(query: QueryOf<'listProjects'> = {}): Promise<ProjectList> {
    return this.read('/v1/projects', query);
  }
  /** Every project across all pages. */
  iterateProjects(query: Omit<QueryOf<'listProjects'>, 'cursor'> = {}): AsyncGenerator<Project, void, undefined> {
    return eachRecord((cursor) => this.listProjects({ ...query, ...(cursor ? { cursor } : {}) }));
  }
  /** POST /v1/projects (not retried after a lost connection). */
  createProject(input: ProjectInput): Promise<Project> {
    return this.send({ method: 'POST', path: '/v1/projects', body: input, repeatable: false });
  }
  /** GET /v1/projects/{id}. */
  getProject(id: string): Promise<Project> {
    return this.read(path('/v1/projects/{id}', { id }));
  }
  /** PATCH /v1/projects/{id}. */
  updateProject(id: string, patch: ProjectPatch): Promise<Project> {
    return this.send({ method: 'PATCH', path: path('/v1/projects/{id}', { id }), body: patch, repeatable: true });
  }
  /** DELETE /v1/projects/{id}. */
  deleteProject(id: string): Promise<Deleted> {
    return this.send({ method: 'DELETE', path: path('/v1/projects/{id}', { id }), repeatable: true });
  }
  // --- Webhook endpoints (our extension) ---

  /** GET /v1/webhook_endpoints: one page of the organization's webhook endpoints. */
  listWebhookEndpoints(query: QueryOf<'listWebhookEndpoints'> = {}): Promise<WebhookEndpointList> {
    return this.read('/v1/webhook_endpoints', query);
  }
  /** Every webhook endpoint across all pages. */
  iterateWebhookEndpoints(
    query: Omit<QueryOf<'listWebhookEndpoints'>, 'cursor'> = {},
  ): AsyncGenerator<WebhookEndpoint, void, undefined> {
    return eachRecord((cursor) => this.listWebhookEndpoints({ ...query, ...(cursor ? { cursor } : {}) }));
  }
  /** POST /v1/webhook_endpoints: the answer shows the signing secret once (not retried after a lost connection). */
  createWebhookEndpoint(input: WebhookEndpointInput): Promise<WebhookEndpoint> {
    return this.send({ method: 'POST', path: '/v1/webhook_endpoints', body: input, repeatable: false });
  }
  /** GET /v1/webhook_endpoints/{id}. */
  getWebhookEndpoint(id: string): Promise<WebhookEndpoint> {
    return this.read(path('/v1/webhook_endpoints/{id}', { id }));
  }
  /** DELETE /v1/webhook_endpoints/{id}. */
  deleteWebhookEndpoint(id: string): Promise<Deleted> {
    return this.send({ method: 'DELETE', path: path('/v1/webhook_endpoints/{id}', { id }), repeatable: true });
  }
  /** GET /v1/webhook_endpoints/{id}/deliveries: one page of an endpoint's deliveries and their attempts. */
  listWebhookDeliveries(id: string, query: QueryOf<'listWebhookDeliveries'> = {}): Promise<WebhookDeliveryList> {
    return this.read(path('/v1/webhook_endpoints/{id}/deliveries', { id }), query);
  }
  /** Every delivery of an endpoint across all pages. */
  iterateWebhookDeliveries(
    id: string,
    query: Omit<QueryOf<'listWebhookDeliveries'>, 'cursor'> = {},
  ): AsyncGenerator<WebhookDelivery, void, undefined> {
    return eachRecord((cursor) => this.listWebhookDeliveries(id, { ...query, ...(cursor ? { cursor } : {}) }));
  }

  /** POST /v1/projects/{id}/pack: a job of the project's content; one Idempotency-Key for all retries. */
  packProject(id: string, options: CreateJobOptions = {}): Promise<Job> {
    return this.send({
      method: 'POST',
      path: path('/v1/projects/{id}/pack', { id }),
      query: { wait: options.wait },
      headers: { 'idempotency-key': options.idempotencyKey ?? randomUUID() },
      repeatable: true,
      signal: options.signal,
    });
  }
}
