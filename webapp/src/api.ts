/**
 * The web app's one way to the service: same-origin `fetch` with the session cookie. Unsafe
 * methods (POST, PATCH, PUT, DELETE) carry the session's CSRF token in `X-CSRF-Token`. The web app
 * calls the same /v1 routes as API clients (same records, same validation messages) plus its own
 * /app/api routes (session, invitations, members, API keys). A non-2xx answer throws ApiFailure
 * with the spec's error envelope (`code`, `message`, `details`).
 */

/** One problem of a 400/422 answer (spec Errors: `details[]`). */
export interface ErrorDetail {
  path: string;
  code: string;
  message: string;
}

/** A non-2xx answer: the envelope's code, message and details, and the HTTP status. */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: ErrorDetail[] = [],
  ) {
    super(message);
    this.name = 'ApiFailure';
  }
}

let csrfToken: string | null = null;

/** Sets the CSRF token of the signed-in session (from GET/POST /app/api/session); null on sign-out. */
export function useCsrfToken(token: string | null): void {
  csrfToken = token;
}

const UNSAFE = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);

/**
 * Calls `path` (e.g. `/v1/vehicles?limit=20`) with an optional JSON body and resolves with the
 * parsed JSON (undefined for 204). Throws ApiFailure on a non-2xx answer, and on a network
 * failure with status 0 and code `network_error`.
 */
export async function call<T>(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<T> {
  const h: Record<string, string> = { Accept: 'application/json', ...headers };
  if (body !== undefined) h['Content-Type'] = 'application/json';
  if (UNSAFE.has(method) && csrfToken) h['X-CSRF-Token'] = csrfToken;
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      headers: h,
      credentials: 'same-origin',
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
  } catch (err) {
    throw new ApiFailure(
      0,
      'network_error',
      `the service could not be reached: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  const json: unknown = text ? safeParse(text) : undefined;
  if (!res.ok) {
    const error = (json as { error?: { code?: string; message?: string; details?: ErrorDetail[] } } | undefined)?.error;
    throw new ApiFailure(
      res.status,
      error?.code ?? 'internal_error',
      error?.message ?? `HTTP ${res.status}`,
      error?.details ?? [],
    );
  }
  return json as T;
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * A fresh `Idempotency-Key` (spec Idempotency): 32 hex characters from the browser's random
 * source (crypto.getRandomValues works on plain http too, unlike crypto.randomUUID).
 */
export function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
