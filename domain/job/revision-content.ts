/**
 * The stored content of a plan revision (revision.ts): encoded and decoded like a job body
 * (body-encoding.ts: Brotli-compressed JSON as base64, checked by its digest), but in one piece,
 * and read back from the job's revision stream on demand.
 */
import type { EventStore } from '../ports/event-store.js';
import { decodeBody, encodeBody } from './body-encoding.js';
import type { EncodedRevisionContent, PlanRevisedData } from './revision.js';
import { jobRevisionStream } from './streams.js';

/** Encodes `content` (JSON-serializable) in one piece. */
export async function encodeRevisionContent(content: unknown): Promise<EncodedRevisionContent> {
  const { encoding, digest, bytes, chunks } = await encodeBody(content, Number.MAX_SAFE_INTEGER);
  return { encoding, digest, bytes, data: chunks[0]! };
}

/** The value `content` encodes. Throws JobBodyCorruptError when it does not match its digest or does not decode. */
export function decodeRevisionContent(content: EncodedRevisionContent): Promise<unknown> {
  return decodeBody(content.encoding, content.digest, [content.data]);
}

/**
 * The PlanRevised data of revision `revision` (1-based) of `jobId`, or null when the job has no
 * such revision. Throws what the store throws.
 */
export async function readPlanRevised(
  store: EventStore,
  jobId: string,
  revision: number,
): Promise<PlanRevisedData | null> {
  if (!Number.isSafeInteger(revision) || revision < 1) return null;
  const [event] = await store.readStream(jobRevisionStream(jobId), revision - 1);
  return event?.type === 'PlanRevised' ? (event.data as PlanRevisedData) : null;
}
