/**
 * Where the page's plan comes from: the page is `/viewer/<job>?expires=…&signature=…` (the
 * signed `viewer_url`), its data `/viewer/<job>/plan.json` with the same query
 * (api/http/routes/plan-viewer.ts). Errors arrive in the spec's envelope and become PlanLoadError.
 */
import type { ViewerPlan } from '../../api/http/plan-viewer/viewer-plan.js';

/** Why the plan could not be loaded: the envelope's `error.code` (or `network`) and message. */
export class PlanLoadError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'PlanLoadError';
  }
}

/** The data URL of a viewer page at `location` (path `/viewer/<job>`, the signed query kept). */
export function planDataUrl(location: Pick<Location, 'pathname' | 'search'>): string {
  return `${location.pathname.replace(/\/+$/, '')}/plan.json${location.search}`;
}

/** Fetches and parses the plan at `url`. Throws PlanLoadError with the envelope's code on a non-2xx answer. */
export async function loadPlan(url: string): Promise<ViewerPlan> {
  let res: Response;
  try {
    res = await fetch(url, { headers: { accept: 'application/json' } });
  } catch (err) {
    throw new PlanLoadError(
      'network',
      `the plan could not be loaded: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  const body = (await res.json().catch(() => null)) as
    { error?: { code?: string; message?: string } } | ViewerPlan | null;
  if (!res.ok) {
    const error = body && 'error' in body ? body.error : undefined;
    throw new PlanLoadError(
      error?.code ?? `http_${res.status}`,
      error?.message ?? `the service answered ${res.status}`,
    );
  }
  if (!body || !('vehicles' in body))
    throw new PlanLoadError('invalid_plan', 'the service answered something that is not a plan');
  return body;
}
