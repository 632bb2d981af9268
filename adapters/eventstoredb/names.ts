/**
 * Names of the EventStoreDB adapter: the namespace prefix of stream names on the server, and the
 * deterministic UUIDs EventStoreDB needs as event ids (ours, like `job_abc:result`, are not UUIDs).
 */
import { createHash } from 'node:crypto';

/** UUID namespace of the event ids this adapter derives (a fixed random UUID, never change it). */
export const EVENT_ID_NAMESPACE = '0e6ce5c0-5671-406d-8fc9-56c7e030b88f';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Checks a namespace: any string that does not start with `$` (EventStoreDB's system streams).
 * Returns it; throws an Error otherwise.
 */
export function checkNamespace(namespace: string): string {
  if (namespace.startsWith('$'))
    throw new Error(`namespace ${JSON.stringify(namespace)} must not start with $ (system streams)`);
  return namespace;
}

/**
 * The server's name of our stream `stream`: `namespace + stream`. Throws an Error for an empty
 * name or one starting with `$` (the port's streams are never system streams).
 */
export function serverStream(namespace: string, stream: string): string {
  if (stream === '' || stream.startsWith('$'))
    throw new Error(`stream name ${JSON.stringify(stream)} is empty or starts with $`);
  return namespace + stream;
}

/**
 * Our name of the server's stream `name` (the namespace stripped), or undefined when it lies
 * outside the namespace or is a system stream (`$…` after the namespace, `$$…` metadata streams).
 */
export function portStream(namespace: string, name: string): string | undefined {
  if (!name.startsWith(namespace)) return undefined;
  const stream = name.slice(namespace.length);
  return stream === '' || stream.startsWith('$') ? undefined : stream;
}

/**
 * A name-based (version 5, SHA-1) UUID of `name` in the UUID namespace `namespace` (RFC 9562
 * §5.5), lowercase, 8-4-4-4-12. Throws a RangeError when `namespace` is not a UUID.
 */
export function uuidV5(namespace: string, name: string): string {
  if (!UUID.test(namespace)) throw new RangeError(`not a UUID: ${namespace}`);
  const bytes = createHash('sha1')
    .update(Buffer.from(namespace.replace(/-/g, ''), 'hex'))
    .update(name, 'utf8')
    .digest()
    .subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x50; // version 5
  bytes[8] = (bytes[8]! & 0x3f) | 0x80; // RFC 4122 variant
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * The EventStoreDB event id (a UUID) of our event id `id` in the store namespace `namespace`.
 * Deterministic, so a retried append carries the same UUIDs and the server's own idempotence
 * check recognises it; the namespace is part of the name so equal ids in two namespaces (tests
 * sharing a server) stay distinct. `[namespace, id]` as JSON keeps the pair unambiguous.
 */
export function eventUuid(namespace: string, id: string): string {
  return uuidV5(EVENT_ID_NAMESPACE, JSON.stringify([namespace, id]));
}
