/**
 * The service calls of the viewer's edit mode (plan editing), made from the viewer page with the
 * signed-in web app's session cookie (same origin) and its CSRF token on unsafe methods, like the
 * web app's own calls (webapp/src/api.ts):
 * - who may edit: GET /app/api/session (the member and the CSRF token; 401 when not signed in)
 *   and GET /v1/jobs/{id} (404 for another organization's job);
 * - save: POST /v1/jobs/{id}/revisions {base_revision, operations} → 201 the new revision,
 *   409 conflict (someone saved first), 422 validation_failed (the problems as details);
 * - the latest revision's viewer link: GET /v1/jobs/{id}/revisions, GET /v1/jobs/{id}/result?revision=N;
 * - re-plan: GET /v1/jobs/{id}?include=request, its price (POST /v1/estimate) to confirm, then
 *   POST /v1/pack with an Idempotency-Key.
 * `fetch` is passed in, so node tests drive these with a stand-in.
 */
import type { PackRequest } from '../../../domain/pack/request.js';
import type { EditOperation } from '../../../solver/edit/operations.js';
import { replanRequest, type ReplanSource } from '../../../solver/edit/replan-request.js';
import { replanReference, withReference } from '../../../domain/job/provenance.js';

/** The fetch the calls use (the browser's, or a test's stand-in). */
export type Fetch = (input: string, init?: RequestInit) => Promise<Response>;

/** A signed-in member who may edit the job's plan: their role and the session's CSRF token. */
export interface EditAccess {
  role: 'owner' | 'member';
  name: string;
  csrfToken: string;
}

/** One problem of a 422 answer (spec Errors `details[]`). */
export interface SaveDetail {
  path: string;
  code: string;
  message: string;
}

/** How a save ended. */
export type SaveOutcome =
  | { kind: 'saved'; revision: number; viewerUrl: string }
  | { kind: 'conflict'; message: string }
  | { kind: 'invalid'; message: string; details: SaveDetail[] }
  | { kind: 'failed'; status: number; code: string; message: string };

const enc = encodeURIComponent;

async function json(res: Response): Promise<unknown> {
  const text = await res.text();
  try {
    return text ? (JSON.parse(text) as unknown) : undefined;
  } catch {
    return undefined;
  }
}

type Envelope = { error?: { code?: string; message?: string; details?: SaveDetail[] } } | undefined;

/**
 * The member who may edit job `jobId`, or null: not signed in (401), a role other than owner or
 * member, or a job of another organization (404). A network failure also answers null: the
 * viewer stays read-only.
 */
export async function editAccess(fetch: Fetch, jobId: string): Promise<EditAccess | null> {
  try {
    const session = await fetch('/app/api/session', {
      headers: { accept: 'application/json' },
      credentials: 'same-origin',
    });
    if (!session.ok) return null;
    const body = (await json(session)) as { user?: { role?: string; name?: string }; csrf_token?: string } | undefined;
    const role = body?.user?.role;
    if ((role !== 'owner' && role !== 'member') || !body?.csrf_token) return null;
    const job = await fetch(`/v1/jobs/${enc(jobId)}`, {
      headers: { accept: 'application/json' },
      credentials: 'same-origin',
    });
    // Read to its end: a body left unread keeps its connection busy (the page never gets idle).
    await job.text();
    if (!job.ok) return null;
    return { role, name: body.user?.name ?? '', csrfToken: body.csrf_token };
  } catch {
    return null;
  }
}

/** What tells the viewer page it was opened from the signed-in web app. */
export interface OpenedFrom {
  /** This page's origin. */
  origin: string;
  /** Path of the page framing this one when it is on this origin, else null (not framed, or framed by another site). */
  parentPath: string | null;
  /** `document.referrer` ('' when none). */
  referrer: string;
  /** This tab opened a viewer from the web app before (a saved revision reloads the page without a referrer). */
  remembered: boolean;
}

/**
 * True when the viewer was opened from the web app (`/app/…` on this origin): framed by its job or
 * playground page, or opened by its link. Only then does the viewer ask for the session: a signed
 * link opened from anywhere else (an e-mail, a chat) stays read-only without asking.
 */
export function openedFromWebApp(from: OpenedFrom): boolean {
  const inApp = (path: string): boolean => path === '/app' || path.startsWith('/app/');
  if (from.parentPath !== null && inApp(from.parentPath)) return true;
  if (from.remembered) return true;
  try {
    const r = new URL(from.referrer);
    return r.origin === from.origin && inApp(r.pathname);
  } catch {
    return false;
  }
}

/** Path and query of `url` (the service's links carry its public origin; the viewer calls its own). */
export function pathOf(url: string): string {
  const u = new URL(url, 'http://localhost');
  return `${u.pathname}${u.search}`;
}

/**
 * Saves `operations` on revision `baseRevision` of job `jobId` as the next revision. Never
 * throws: a network failure is `failed` with status 0.
 */
export async function saveRevision(
  fetch: Fetch,
  access: Pick<EditAccess, 'csrfToken'>,
  jobId: string,
  baseRevision: number,
  operations: readonly EditOperation[],
): Promise<SaveOutcome> {
  let res: Response;
  try {
    res = await fetch(`/v1/jobs/${enc(jobId)}/revisions`, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { accept: 'application/json', 'content-type': 'application/json', 'x-csrf-token': access.csrfToken },
      body: JSON.stringify({ base_revision: baseRevision, operations }),
    });
  } catch (err) {
    return { kind: 'failed', status: 0, code: 'network_error', message: String(err) };
  }
  const body = await json(res);
  if (res.status === 201) {
    const saved = body as { revision?: number; result?: { viewer_url?: string } } | undefined;
    return { kind: 'saved', revision: saved?.revision ?? baseRevision + 1, viewerUrl: saved?.result?.viewer_url ?? '' };
  }
  const error = (body as Envelope)?.error;
  const message = error?.message ?? `the service answered ${res.status}`;
  if (res.status === 409) return { kind: 'conflict', message };
  if (res.status === 422) return { kind: 'invalid', message, details: error?.details ?? [] };
  return { kind: 'failed', status: res.status, code: error?.code ?? `http_${res.status}`, message };
}

/**
 * The viewer link (path and query) of job `jobId`'s latest revision: the newest of
 * GET /v1/jobs/{id}/revisions, its Result's `viewer_url`; the job's own Result's when it has no
 * revision. Null when either call fails.
 */
export async function latestViewerPath(fetch: Fetch, jobId: string): Promise<string | null> {
  try {
    const list = await fetch(`/v1/jobs/${enc(jobId)}/revisions`, { credentials: 'same-origin' });
    if (!list.ok) return null;
    const newest = ((await json(list)) as { data?: { revision?: number }[] } | undefined)?.data?.[0]?.revision ?? 0;
    const result = await fetch(`/v1/jobs/${enc(jobId)}/result${newest > 0 ? `?revision=${newest}` : ''}`, {
      credentials: 'same-origin',
    });
    if (!result.ok) return null;
    const url = ((await json(result)) as { viewer_url?: string } | undefined)?.viewer_url;
    return url ? pathOf(url) : null;
  } catch {
    return null;
  }
}

/** A failed call of the re-plan: the envelope's code and message. */
export class CallFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'CallFailure';
  }
}

/** A fresh Idempotency-Key: 32 hex characters from the browser's random source. */
export function newIdempotencyKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * The request of a re-plan of job `jobId` from step `step` of vehicle `vehicle` of `result`: the
 * job's request (GET /v1/jobs/{id}?include=request) with the units loaded up to step K pinned
 * (solver/edit/replan-request.ts) and the reference naming its parent
 * (`Re-plan of job_… from step K of vehicle N` unless the job has one of the planner's own;
 * domain/job/provenance.ts, as the web app's job page writes it). Throws CallFailure (410
 * result_expired once the request is no longer kept; the service's answer) or the builder's
 * RangeError.
 */
export async function replanRequestOf(
  fetch: Fetch,
  jobId: string,
  result: ReplanSource,
  vehicle: number,
  step: number,
): Promise<PackRequest> {
  const read = await fetch(`/v1/jobs/${enc(jobId)}?include=request`, {
    headers: { accept: 'application/json' },
    credentials: 'same-origin',
  });
  const job = (await json(read)) as ({ request?: PackRequest | null } & Envelope) | undefined;
  if (!read.ok) throw failure(read.status, job);
  if (!job?.request)
    throw new CallFailure(
      410,
      'result_expired',
      `the request of job ${jobId} is no longer kept: it cannot be re-planned`,
    );
  return withReference(replanRequest(job.request, result, vehicle, step), replanReference(jobId, step, vehicle));
}

/** What a job of a request may cost (spec Estimate): the most it reserves and the credits available, in credits. */
export interface JobPrice {
  maxCredits: number;
  availableCredits: number;
}

/**
 * The free estimate of `request` (POST /v1/estimate): its price before a billed start. Throws
 * CallFailure for a refused call, and for an estimate that says the request cannot run
 * (`valid: false`; code validation_failed, its problems in the message).
 */
export async function priceOf(
  fetch: Fetch,
  access: Pick<EditAccess, 'csrfToken'>,
  request: PackRequest,
): Promise<JobPrice> {
  const answer = await fetch('/v1/estimate', {
    method: 'POST',
    credentials: 'same-origin',
    headers: { accept: 'application/json', 'content-type': 'application/json', 'x-csrf-token': access.csrfToken },
    body: JSON.stringify(request),
  });
  const body = (await json(answer)) as
    | ({
        valid?: boolean;
        errors?: SaveDetail[];
        estimated_cost?: { max_credits?: number };
        balance?: { available_credits?: number };
      } & Envelope)
    | undefined;
  if (!answer.ok) throw failure(answer.status, body);
  if (body?.valid !== true || typeof body.estimated_cost?.max_credits !== 'number') {
    const problems = (body?.errors ?? []).map((e) => e.message).join('; ');
    throw new CallFailure(422, 'validation_failed', `the request cannot run${problems ? `: ${problems}` : ''}`);
  }
  return { maxCredits: body.estimated_cost.max_credits, availableCredits: body.balance?.available_credits ?? 0 };
}

/**
 * Starts `request` as a new job (POST /v1/pack with `idempotencyKey`, billed like any job) and
 * resolves with its id. Throws CallFailure with the service's answer (402 without the credits,
 * 422 when it refuses a pinned unit, ...).
 */
export async function startJob(
  fetch: Fetch,
  access: Pick<EditAccess, 'csrfToken'>,
  request: PackRequest,
  idempotencyKey = newIdempotencyKey(),
): Promise<string> {
  const posted = await fetch('/v1/pack', {
    method: 'POST',
    credentials: 'same-origin',
    headers: {
      accept: 'application/json',
      'content-type': 'application/json',
      'x-csrf-token': access.csrfToken,
      'idempotency-key': idempotencyKey,
    },
    body: JSON.stringify(request),
  });
  const created = (await json(posted)) as ({ id?: string } & Envelope) | undefined;
  if (!posted.ok || !created?.id) throw failure(posted.status, created);
  return created.id;
}

function failure(status: number, body: Envelope): CallFailure {
  return new CallFailure(
    status,
    body?.error?.code ?? `http_${status}`,
    body?.error?.message ?? `the service answered ${status}`,
  );
}
