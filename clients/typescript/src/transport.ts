/**
 * One HTTP call to the service with the spec's retry rules (retry.ts): builds the URL from the
 * base address, path and query, sends the key as `Authorization: Bearer`, parses the answer and
 * turns a non-2xx answer into a typed error (errors.ts) once the retries are spent.
 */
import { apiErrorOf, PackingConnectionError } from './errors.js';
import {
  DEFAULT_RETRY,
  isRetryableConflict,
  RETRYABLE_STATUSES,
  retryAfterSeconds,
  retryDelayMs,
  type RetryPolicy,
} from './retry.js';

/** What a transport needs: address, key and the pieces tests replace. */
export interface TransportOptions {
  /** Service address, e.g. `http://localhost:8080` (a path prefix is kept). */
  baseUrl: string;
  /** API key `pk_live_…`; null for calls without authentication only. */
  apiKey: string | null;
  retry?: Partial<RetryPolicy>;
  /** Defaults to the global fetch. */
  fetch?: typeof fetch;
  /** Waits `ms`; defaults to a timer (tests may count instead). */
  sleep?: (ms: number) => Promise<void>;
  /** Called before each retry: which attempt failed how, and the wait in ms. */
  onRetry?: (event: RetryEvent) => void;
  /** Sent as User-Agent. */
  userAgent?: string;
}

/** A retry about to happen. */
export interface RetryEvent {
  method: string;
  path: string;
  /** 1-based attempt that failed. */
  attempt: number;
  /** Status of that attempt, or null when it got no answer. */
  status: number | null;
  delayMs: number;
}

/** One request. */
export interface Request {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Path with its parameters filled in, e.g. `/v1/jobs/job_123`; or an absolute URL (signed links). */
  path: string;
  query?: Record<string, string | number | boolean | undefined> | undefined;
  body?: unknown;
  headers?: Record<string, string>;
  /** Send the key (default true). */
  auth?: boolean;
  /** Safe to send again after a lost connection or a 500 (reads, deletes, calls with an Idempotency-Key). */
  repeatable: boolean;
  /** How to read a 2xx body (default json). */
  as?: 'json' | 'text' | 'bytes';
  signal?: AbortSignal | undefined;
}

/** A 2xx answer. */
export interface Answer<T> {
  status: number;
  headers: Headers;
  body: T;
}

const sleepFor = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Sends requests to one service with one key; see send(). */
export class Transport {
  readonly baseUrl: string;
  private readonly apiKey: string | null;
  private readonly policy: RetryPolicy;
  private readonly fetchFn: typeof fetch;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly onRetry: ((event: RetryEvent) => void) | undefined;
  private readonly userAgent: string;

  constructor(options: TransportOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.apiKey = options.apiKey;
    this.policy = { ...DEFAULT_RETRY, ...options.retry };
    this.fetchFn = options.fetch ?? fetch;
    this.sleep = options.sleep ?? sleepFor;
    this.onRetry = options.onRetry;
    this.userAgent = options.userAgent ?? '@packing/client';
  }

  /** The absolute URL of `path` with `query` (undefined values left out). */
  url(path: string, query?: Request['query']): string {
    const url = new URL(/^https?:\/\//.test(path) ? path : this.baseUrl + path);
    for (const [name, value] of Object.entries(query ?? {}))
      if (value !== undefined) url.searchParams.set(name, String(value));
    return url.toString();
  }

  /**
   * Sends `request`, retrying 429 and 503 (refused before any work) and, for repeatable
   * requests only, 500 and lost connections (either may come after the work was done: a create
   * without an Idempotency-Key sent again would create twice) per the policy. Throws the PackingApiError subclass of the last non-2xx answer, or
   * PackingConnectionError; an abort of `request.signal` rejects with its reason.
   */
  async send<T>(request: Request): Promise<Answer<T>> {
    const url = this.url(request.path, request.query);
    const headers: Record<string, string> = {
      accept: request.as === 'bytes' ? 'application/pdf, */*' : 'application/json',
      'user-agent': this.userAgent,
      ...request.headers,
    };
    if (request.auth !== false) {
      if (!this.apiKey) throw new PackingConnectionError('no API key: set PACKING_API_KEY or pass apiKey');
      headers['authorization'] = `Bearer ${this.apiKey}`;
    }
    const body = request.body === undefined ? undefined : JSON.stringify(request.body);
    if (body !== undefined) headers['content-type'] = 'application/json';
    for (let attempt = 1; ; attempt++) {
      const retriesLeft = attempt <= this.policy.maxRetries;
      let res: Response;
      try {
        res = await this.fetchFn(url, {
          method: request.method,
          headers,
          ...(body === undefined ? {} : { body }),
          ...(request.signal ? { signal: request.signal } : {}),
        });
      } catch (cause) {
        if (request.signal?.aborted) throw request.signal.reason;
        if (!request.repeatable || !retriesLeft)
          throw new PackingConnectionError(`${request.method} ${url}: ${(cause as Error).message}`, { cause });
        await this.wait(request, attempt, null, null);
        continue;
      }
      if (res.ok)
        return { status: res.status, headers: res.headers, body: (await readBody(res, request.as ?? 'json')) as T };
      const text = await res.text();
      const retryAfter = retryAfterSeconds(res.headers.get('retry-after'));
      const code = (parseJson(text) as { error?: { code?: unknown } } | undefined)?.error?.code;
      const conflict =
        request.repeatable && isRetryableConflict(res.status, typeof code === 'string' ? code : undefined, retryAfter);
      if (
        (conflict || (RETRYABLE_STATUSES.has(res.status) && (request.repeatable || res.status !== 500))) &&
        retriesLeft
      ) {
        await this.wait(request, attempt, res.status, retryAfter);
        continue;
      }
      throw apiErrorOf(res.status, parseJson(text), res.headers.get('x-request-id'), retryAfter);
    }
  }

  private async wait(
    request: Request,
    attempt: number,
    status: number | null,
    retryAfter: number | null,
  ): Promise<void> {
    const delayMs = retryDelayMs(this.policy, attempt - 1, retryAfter);
    this.onRetry?.({ method: request.method, path: request.path, attempt, status, delayMs });
    await this.sleep(delayMs);
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

async function readBody(res: Response, as: 'json' | 'text' | 'bytes'): Promise<unknown> {
  if (as === 'bytes') return new Uint8Array(await res.arrayBuffer());
  const text = await res.text();
  if (as === 'text') return text;
  return text === '' ? null : JSON.parse(text);
}
