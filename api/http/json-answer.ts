/**
 * JSON answers of the read endpoints in one step: `sendJson` writes the bytes and headers
 * Express's `res.json` writes (`Content-Type: application/json; charset=utf-8`,
 * `Content-Length`, the weak `ETag` of the body), with one JSON.stringify and one hash, without
 * Express's content-type parsing and setting lookups. Anything out of the plain case (a HEAD or
 * conditional request, a status without a body, a Content-Type or ETag already set, JSON or ETag
 * settings of the app changed) goes to `res.json` itself, so every answer stays what Express
 * would send.
 *
 * A `JsonAnswer` is a value with its body and ETag made once (`jsonAnswer`): an endpoint that
 * answers the same value again (a job document that has not changed, api/http/jobs/job-answer.ts)
 * keeps it and sends it with `sendJsonAnswer`, without a new JSON.stringify or hash.
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
 * The body `res.json` would send for a JSON value (JSON.stringify, no replacer or spaces), its
 * length in UTF-8 bytes and its weak ETag. Read-only once made: it is sent as it is, however
 * often. The value itself is not kept (kept answers hold only their text): the rare answer out
 * of the plain case parses the text back, which gives `res.json` the same value to write.
 */
export interface JsonAnswer {
  readonly text: string;
  readonly length: number;
  /** Express's default ETag (etag package, weak): `W/"<length, hex>-<first 27 base64 characters of the body's SHA-1>"`. */
  readonly etag: string;
}

/** `value`'s JsonAnswer: one JSON.stringify and one SHA-1 of the body. */
export function jsonAnswer(value: unknown): JsonAnswer {
  // The body stays a string: Node writes the head and a string body in one chunk (a Buffer body
  // is a chunk of its own), and the hash and the length read the string's UTF-8 bytes as such.
  const text = JSON.stringify(value);
  const length = Buffer.byteLength(text, 'utf8');
  return { text, length, etag: `W/"${length.toString(16)}-${hash('sha1', text, 'base64').substring(0, 27)}"` };
}

/** Sends `answer` with the current status: the same bytes and headers as `res.json` of its value. */
export function sendJsonAnswer(res: Response, answer: JsonAnswer): void {
  if (plainCase(res)) write(res, answer);
  else res.json(JSON.parse(answer.text));
}

/** The one-step write of the plain case. */
function write(res: Response, answer: JsonAnswer): void {
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', String(answer.length));
  res.setHeader('ETag', answer.etag);
  res.end(answer.text, 'utf8');
}

/**
 * Answers `value` as JSON with the current status: the same bytes and headers as
 * `res.json(value)`.
 */
export function sendJson(res: Response, value: unknown): void {
  if (plainCase(res)) write(res, jsonAnswer(value));
  else res.json(value);
}
