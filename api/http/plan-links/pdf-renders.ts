/**
 * The PDF renders behind signed `pdf_url` links (GET /plans/{job}.pdf), kept from tying up the
 * machine: one signed link must not keep it busy.
 *
 * - **A cache** of rendered PDFs by (job, plan revision, link generation, display units), each
 *   kept until its job's `expires_at` (when the bodies it was rendered from are deleted), within
 *   PDF_CACHE_BYTES (least recently used first out). Requests for a PDF being rendered wait for
 *   that render: 20 parallel GETs of one link render once.
 * - **Bounded concurrency:** at most PDF_RENDER_CONCURRENCY renders at once (pdfkit works on the
 *   event loop); at most PDF_RENDER_QUEUE renders wait for a slot, further ones answer
 *   `429 rate_limited` with Retry-After.
 * - **Rate limits:** PDF_GETS_PER_LINK_PER_MINUTE GETs per link (its signature) and
 *   PDF_GETS_PER_ADDRESS_PER_MINUTE per client address, cached or not, then `429 rate_limited`
 *   with Retry-After until the minute ends. Counted in this process (a PDF is rendered where it
 *   is asked for).
 *
 * Libraries: lru-cache (the cache), p-limit (the concurrency), rate-limiter-flexible (the counts).
 */
import { LRUCache } from 'lru-cache';
import pLimit, { type LimitFunction } from 'p-limit';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { ApiError } from '../errors.js';

/** Renders at once in one process. */
export const PDF_RENDER_CONCURRENCY = 2;
/** Renders that may wait for a slot before further ones are refused. */
export const PDF_RENDER_QUEUE = 8;
/** GETs a minute of one signed PDF link. */
export const PDF_GETS_PER_LINK_PER_MINUTE = 30;
/** GETs a minute of PDF links from one client address. */
export const PDF_GETS_PER_ADDRESS_PER_MINUTE = 60;
/** Bytes of rendered PDFs kept, at most. */
export const PDF_CACHE_BYTES = 64 * 1024 * 1024;
/** Retry-After when every render slot and queue place is taken, s (a render takes about a second). */
const BUSY_RETRY_AFTER_S = 2;

/** What a rendered PDF depends on besides its job's stored bodies, which do not change. */
export interface PdfKey {
  jobId: string;
  revision: number;
  generation: number;
  displayUnits: string;
}

/** The settings of a PdfRenders (tests use smaller ones). */
export interface PdfRenderSettings {
  concurrency: number;
  queue: number;
  perLinkPerMinute: number;
  perAddressPerMinute: number;
  cacheBytes: number;
}

const DEFAULTS: PdfRenderSettings = {
  concurrency: PDF_RENDER_CONCURRENCY,
  queue: PDF_RENDER_QUEUE,
  perLinkPerMinute: PDF_GETS_PER_LINK_PER_MINUTE,
  perAddressPerMinute: PDF_GETS_PER_ADDRESS_PER_MINUTE,
  cacheBytes: PDF_CACHE_BYTES,
};

/** The PDF renders of one running service (see the module comment). */
export class PdfRenders {
  private readonly settings: PdfRenderSettings;
  private readonly cache: LRUCache<string, Buffer>;
  private readonly rendering = new Map<string, Promise<Buffer>>();
  private readonly slots: LimitFunction;
  private readonly perLink: RateLimiterMemory;
  private readonly perAddress: RateLimiterMemory;
  /** Renders started, for the log and the tests. */
  renders = 0;

  constructor(settings: Partial<PdfRenderSettings> = {}) {
    this.settings = { ...DEFAULTS, ...settings };
    this.cache = new LRUCache<string, Buffer>({
      maxSize: this.settings.cacheBytes,
      sizeCalculation: (pdf) => Math.max(1, pdf.length),
    });
    this.slots = pLimit(this.settings.concurrency);
    this.perLink = new RateLimiterMemory({
      keyPrefix: 'pdf-link',
      points: this.settings.perLinkPerMinute,
      duration: 60,
    });
    this.perAddress = new RateLimiterMemory({
      keyPrefix: 'pdf-address',
      points: this.settings.perAddressPerMinute,
      duration: 60,
    });
  }

  /**
   * The PDF of `key`: from the cache, from a render under way, or rendered now by `render` and
   * kept until `expiresAt` (RFC 3339). `link` names the signed link (its signature), `address`
   * the client. Throws ApiError `rate_limited` (with retryAfterSeconds) over a rate limit or when
   * every render slot and queue place is taken; rethrows what `render` throws (nothing is cached then).
   */
  async pdf(
    key: PdfKey,
    link: string,
    address: string,
    expiresAt: string,
    render: () => Promise<Buffer>,
  ): Promise<Buffer> {
    await this.count(this.perLink, link, 'this PDF link');
    await this.count(this.perAddress, address, 'PDF links from this address');
    const id = `${key.jobId} ${key.revision} ${key.generation} ${key.displayUnits}`;
    const cached = this.cache.get(id);
    if (cached) return cached;
    const under = this.rendering.get(id);
    if (under) return under;
    if (this.slots.pendingCount >= this.settings.queue)
      throw new ApiError(
        'rate_limited',
        `the service is rendering ${this.slots.activeCount + this.slots.pendingCount} PDFs; retry after ${BUSY_RETRY_AFTER_S} s`,
        undefined,
        { retryAfterSeconds: BUSY_RETRY_AFTER_S },
      );
    const started = this.slots(async () => {
      this.renders += 1;
      return render();
    });
    this.rendering.set(id, started);
    try {
      const pdf = await started;
      const ttl = Date.parse(expiresAt) - Date.now();
      if (ttl > 0) this.cache.set(id, pdf, { ttl });
      return pdf;
    } finally {
      this.rendering.delete(id);
    }
  }

  /** Counts one GET against `subject` on `limiter`; throws rate_limited when it is over. */
  private async count(limiter: RateLimiterMemory, subject: string, what: string): Promise<void> {
    try {
      await limiter.consume(subject);
    } catch (refused) {
      if (!(refused instanceof RateLimiterRes)) throw refused;
      const retryAfterSeconds = Math.max(1, Math.ceil(refused.msBeforeNext / 1000));
      throw new ApiError(
        'rate_limited',
        `more than ${limiter.points} GETs a minute of ${what}; retry after ${retryAfterSeconds} s`,
        undefined,
        { retryAfterSeconds },
      );
    }
  }
}
