/**
 * How a job body (a request with its model, or a result) is packed into events that fit the event
 * store's MAX_APPEND_BYTES (domain/ports/event-store.ts): its JSON is compressed with Brotli
 * (quality 4, 16 MiB window: the request and the resolved model repeat the same ids and labels
 * megabytes apart, which a 32 KiB gzip window cannot see), written as base64 and cut into chunks
 * that each fit one append. `digest` is the SHA-256 (hex) of the compressed bytes: it names the
 * chunks of one encoding and proves them whole when read back.
 *
 * Why these settings (`npm run bench -- event-size`, largest legal request, 4.6 MB of JSON):
 * Brotli 4 gives 1.38 MB in ~40 ms, gzip 6 2.59 MB in ~75 ms, Brotli 9 1.13 MB in ~260 ms,
 * Brotli 11 1.08 MB in ~3.9 s. Compression runs on the libuv pool (zlib's async API), off the
 * event loop.
 */
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, brotliDecompress, constants } from 'node:zlib';

const compress = promisify(brotliCompress);
const decompress = promisify(brotliDecompress);

/** The one encoding written: Brotli-compressed JSON as base64 text. */
export const BODY_ENCODING = 'br+base64';
export type BodyEncoding = typeof BODY_ENCODING;

/** Brotli settings of the encoding (quality 4, window 2^24 bytes, text mode). */
const BROTLI_PARAMS = {
  [constants.BROTLI_PARAM_QUALITY]: 4,
  [constants.BROTLI_PARAM_LGWIN]: 24,
  [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
};

/** A body encoded and cut: `chunks` joined are the base64 text of the compressed JSON. */
export interface EncodedBody {
  encoding: BodyEncoding;
  /** SHA-256 (hex) of the compressed bytes. */
  digest: string;
  /** Bytes of the JSON before compression. */
  bytes: number;
  /** At least one; each at most the `chunkChars` asked for. */
  chunks: string[];
}

/**
 * Encodes `value` (JSON-serializable) and cuts the base64 text into chunks of at most
 * `chunkChars` characters (a multiple of 4 is used, so each chunk is whole base64). The same
 * value gives the same chunks (Brotli is deterministic for one zlib build). Throws a RangeError
 * for `chunkChars` below 4.
 */
export async function encodeBody(value: unknown, chunkChars: number): Promise<EncodedBody> {
  const size = Math.floor(chunkChars / 4) * 4;
  if (size < 4) throw new RangeError(`chunkChars must be at least 4, got ${chunkChars}`);
  const json = Buffer.from(JSON.stringify(value));
  const compressed = await compress(json, {
    params: { ...BROTLI_PARAMS, [constants.BROTLI_PARAM_SIZE_HINT]: json.length },
  });
  const text = compressed.toString('base64');
  const chunks: string[] = [];
  for (let at = 0; at < text.length || chunks.length === 0; at += size) chunks.push(text.slice(at, at + size));
  return { encoding: BODY_ENCODING, digest: sha256(compressed), bytes: json.length, chunks };
}

/** Thrown when stored chunks do not make up the body their head names (a part missing, a digest mismatch). */
export class JobBodyCorruptError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JobBodyCorruptError';
  }
}

/**
 * The value `chunks` (in order) encode. Throws JobBodyCorruptError when the encoding is unknown,
 * the compressed bytes do not have `digest`, or they do not decompress to JSON.
 */
export async function decodeBody(encoding: string, digest: string, chunks: readonly string[]): Promise<unknown> {
  if (encoding !== BODY_ENCODING) throw new JobBodyCorruptError(`unknown body encoding ${JSON.stringify(encoding)}`);
  const compressed = Buffer.from(chunks.join(''), 'base64');
  if (sha256(compressed) !== digest) throw new JobBodyCorruptError(`body chunks do not match their digest ${digest}`);
  try {
    return JSON.parse((await decompress(compressed)).toString('utf8')) as unknown;
  } catch (err) {
    throw new JobBodyCorruptError(`body ${digest} does not decode: ${(err as Error).message}`);
  }
}

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}
