/**
 * Pages of GET /v1/jobs kept as JSON answers, so a page asked again (a dashboard polling the
 * list, the web app's jobs page) is sent without a read-store query, a view per job, a
 * JSON.stringify or a hash, as long as nothing it shows can differ.
 *
 * A page is a function of the organization's jobs, the query, the base URL of its links and the
 * clock. It is kept under the query and base URL with:
 * - the organization's jobs version when it was made (ReadModelCache.jobsVersion,
 *   projections/read-model-cache.ts): any event that may change one of the organization's jobs
 *   (a new job, a status, a charge, a revocation of links) moves the version, and a kept page of
 *   another version is never sent. A page made while the version moved is not kept.
 * - the span of the clock it holds for: from when it was made until the first `expires_at` of
 *   its succeeded jobs still showing plan links (the links become "" then, spec Job.pdf_url). A
 *   page showing a job whose `queue_ms` still grows with the clock (waiting for a solver) is not
 *   kept at all.
 * Kept pages are bounded in number and in bytes of JSON; the least recently sent go first.
 */
import type { JobDocument } from '../../../projections/jobs/job-document.js';
import type { JsonAnswer } from '../json-answer.js';
import { retained } from '../plan-links/plan-links.js';
import { queueMsSettled } from './job-answer.js';

/** Default most pages kept. */
export const KEPT_PAGES = 256;
/** Default most bytes of JSON kept over all pages (UTF-8). */
export const KEPT_PAGE_BYTES = 4 * 1024 * 1024;

/** When a page's answer is right: `from` ≤ now < `until` (RFC 3339; `until` null: no end). */
export interface PageSpan {
  from: string;
  until: string | null;
}

interface KeptPage extends PageSpan {
  version: number;
  answer: JsonAnswer;
}

/**
 * The span over which the views of `jobs` made at `now` (RFC 3339) stay the same, or null when
 * one of them changes with the clock (see the module comment).
 */
export function pageSpan(jobs: readonly JobDocument[], now: string): PageSpan | null {
  let until: string | null = null;
  for (const job of jobs) {
    if (!queueMsSettled(job)) return null;
    if (job.status === 'succeeded' && retained(job, now) && (until === null || job.expiresAt < until))
      until = job.expiresAt;
  }
  return { from: now, until };
}

/** The kept pages of one service's GET /v1/jobs (see the module comment). */
export class JobListAnswers {
  private readonly pages = new Map<string, KeptPage>();
  private bytes = 0;

  constructor(
    private readonly maxPages = KEPT_PAGES,
    private readonly maxBytes = KEPT_PAGE_BYTES,
  ) {}

  /** The answer kept under `key` when it was made at `version` and holds at `now` (RFC 3339), else undefined. */
  get(key: string, version: number, now: string): JsonAnswer | undefined {
    const page = this.pages.get(key);
    if (page === undefined) return undefined;
    this.drop(key, page);
    if (page.version !== version || now < page.from || (page.until !== null && now >= page.until)) return undefined;
    this.pages.set(key, page); // the most recently sent now
    this.bytes += page.answer.length;
    return page.answer;
  }

  /** Keeps `answer` under `key`: made at the organization's jobs `version`, right over `span`. */
  keep(key: string, version: number, span: PageSpan, answer: JsonAnswer): void {
    if (answer.length > this.maxBytes) return;
    const old = this.pages.get(key);
    if (old !== undefined) this.drop(key, old);
    this.pages.set(key, { ...span, version, answer });
    this.bytes += answer.length;
    for (const [oldest, page] of this.pages) {
      if (this.pages.size <= this.maxPages && this.bytes <= this.maxBytes) break;
      this.drop(oldest, page);
    }
  }

  /** How many pages and bytes of JSON are kept (tests). */
  get size(): { pages: number; bytes: number } {
    return { pages: this.pages.size, bytes: this.bytes };
  }

  private drop(key: string, page: KeptPage): void {
    this.pages.delete(key);
    this.bytes -= page.answer.length;
  }
}
