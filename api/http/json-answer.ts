/**
 * JSON answers of the read endpoints in one step: `sendJson` writes the bytes and headers
 * Express's `res.json` writes (`Content-Type: application/json; charset=utf-8`,
 * `Content-Length`, the weak `ETag` of the body), with one JSON.stringify and one hash, without
 * Express's content-type parsing and setting lookups. Anything out of the plain case (a HEAD or
 * conditional request, a status without a body, a Content-Type or ETag already set, JSON or ETag
 * settings of the app changed) goes to `res.json` itself, so every answer stays what Express
 * would send.
 */
import { hash } from 'node:crypto';
import type { Response } from 'express';

/** True when Express's `res.json` would do nothing beyond what the one-step write does. */
function plainCase(res: Response): boolean {
  const req = res.req;
  const status = res.statusCode;
  const settings = res.app.settings as Record<string, unknown>;
  return (
    req.method === 'GET' &&
    status >= 200 &&
    status < 300 &&
    status !== 204 &&
    status !== 205 &&
    req.headers['if-none-match'] === undefined &&
    req.headers['if-modified-since'] === undefined &&
    res.getHeader('Content-Type') === undefined &&
    res.getHeader('ETag') === undefined &&
    settings['etag'] === 'weak' &&
    settings['json replacer'] === undefined &&
    settings['json spaces'] === undefined &&
    !settings['json escape']
  );
}

/**
 * Answers `value` as JSON with the current status: the same bytes and headers as
 * `res.json(value)`. The ETag is Express's default (etag package, weak): `W/"<length, hex>-<first
 * 27 base64 characters of the body's SHA-1>"`.
 */
export function sendJson(res: Response, value: unknown): void {
  if (!plainCase(res)) {
    res.json(value);
    return;
  }
  const body = Buffer.from(JSON.stringify(value), 'utf8');
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', String(body.length));
  res.setHeader('ETag', `W/"${body.length.toString(16)}-${hash('sha1', body, 'base64').substring(0, 27)}"`);
  res.end(body);
}
