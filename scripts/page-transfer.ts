/**
 * What a page load transfers over the network, as the browser counts it: each finished request's
 * encoded length (Chrome DevTools Protocol `Network.loadingFinished.encodedDataLength`: bytes
 * received, compressed as served, headers included), sorted into HTML, scripts, style sheets and
 * the rest (API answers, fonts, images), summed per kind. For `npm run bench -- webapp`
 * (scripts/bench-webapp.ts).
 */
import type { CDPSession } from 'playwright-core';

/** The kinds a transfer is counted under. */
export type TransferKind = 'html' | 'js' | 'css' | 'other';

/** One finished request: its URL, kind and bytes received (encoded, as sent). */
export interface Transfer {
  url: string;
  kind: TransferKind;
  bytes: number;
}

/** Bytes per kind, their total and the number of requests. */
export interface TransferSum {
  html: number;
  js: number;
  css: number;
  other: number;
  total: number;
  requests: number;
}

/**
 * The kind of a request from DevTools' resource type (`Document`, `Script`, `Stylesheet`, …),
 * else its MIME type, else its URL's extension.
 */
export function kindOf(resourceType: string | undefined, mimeType: string | undefined, url: string): TransferKind {
  if (resourceType === 'Document') return 'html';
  if (resourceType === 'Script') return 'js';
  if (resourceType === 'Stylesheet') return 'css';
  if (resourceType !== undefined && resourceType !== 'Other') return 'other';
  const mime = (mimeType ?? '').toLowerCase();
  if (mime.includes('html')) return 'html';
  if (mime.includes('javascript') || mime.includes('ecmascript')) return 'js';
  if (mime === 'text/css') return 'css';
  const path = url.split(/[?#]/)[0]!;
  if (/\.(m?js)$/.test(path)) return 'js';
  if (/\.css$/.test(path)) return 'css';
  if (/\.html?$/.test(path)) return 'html';
  return 'other';
}

/** Sums `transfers` per kind. */
export function sumTransfers(transfers: readonly Transfer[]): TransferSum {
  const sum: TransferSum = { html: 0, js: 0, css: 0, other: 0, total: 0, requests: transfers.length };
  for (const t of transfers) {
    sum[t.kind] += t.bytes;
    sum.total += t.bytes;
  }
  return sum;
}

/** The median of `values` (the mean of the middle two for an even count); throws on none. */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new RangeError('no values for a median');
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Per kind, the median over several page loads' sums. */
export function medianSum(sums: readonly TransferSum[]): TransferSum {
  const of = (k: keyof TransferSum): number => median(sums.map((s) => s[k]));
  return {
    html: of('html'),
    js: of('js'),
    css: of('css'),
    other: of('other'),
    total: of('total'),
    requests: of('requests'),
  };
}

/**
 * Records the requests a page makes through its DevTools session `cdp` (Network domain enabled
 * here, the browser's cache emptied first): `finished()` gives the transfers finished so far;
 * data: URLs and failed requests are not counted.
 */
export async function recordTransfers(cdp: CDPSession): Promise<{ finished(): Transfer[] }> {
  const started = new Map<string, { url: string; type?: string; mime?: string }>();
  const done: Transfer[] = [];
  cdp.on('Network.requestWillBeSent', (e) => {
    started.set(e.requestId, { url: e.request.url, ...(e.type !== undefined ? { type: e.type } : {}) });
  });
  cdp.on('Network.responseReceived', (e) => {
    const r = started.get(e.requestId);
    if (r) {
      r.mime = e.response.mimeType;
      r.type = e.type;
    }
  });
  cdp.on('Network.loadingFinished', (e) => {
    const r = started.get(e.requestId);
    if (!r || r.url.startsWith('data:')) return;
    done.push({ url: r.url, kind: kindOf(r.type, r.mime, r.url), bytes: e.encodedDataLength });
  });
  await cdp.send('Network.enable');
  await cdp.send('Network.clearBrowserCache');
  return { finished: () => [...done] };
}
