/**
 * The stores' part of the process profile (service/profile.ts), also what the admin and audit
 * commands read alone: `PACKING_EVENT_STORE` (`sqlite` or `eventstoredb` with `EVENTSTORE_URL`,
 * `EVENTSTORE_NAMESPACE`) and the MongoDB read store (`MONGODB_URL`, `MONGODB_DATABASE`), plus the
 * two checks every profile variable goes through.
 */
import { ProfileError } from '../domain/process-profile.js';

export type EventStoreKind = 'sqlite' | 'eventstoredb';

/** The event store of a profile. `namespace`: prefix of every stream name on the server ('' = none; EVENTSTORE_NAMESPACE). */
export type EventStoreProfile = { kind: 'sqlite' } | { kind: 'eventstoredb'; url: string; namespace: string };

/** The MongoDB read store of a profile (`database` default `packing`). */
export interface MongoReadStoreProfile {
  kind: 'mongodb';
  url: string;
  database: string;
}

/** The value of `name` if it is one of `accepted`, `fallback` when unset or empty. Throws ProfileError otherwise. */
export function choice<T extends string>(env: NodeJS.ProcessEnv, name: string, accepted: readonly T[], fallback: T): T {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  if ((accepted as readonly string[]).includes(raw)) return raw as T;
  throw new ProfileError(name, `${name}=${JSON.stringify(raw)} is not accepted; use one of: ${accepted.join(', ')}`);
}

/** The value of `name`, trimmed. Throws ProfileError (`name` is required `because`) when unset or empty. */
export function required(env: NodeJS.ProcessEnv, name: string, because: string): string {
  const raw = env[name]?.trim();
  if (!raw) throw new ProfileError(name, `${name} is required ${because}`);
  return raw;
}

/**
 * The MongoDB read store when `PACKING_READ_STORE=mongodb` (`MONGODB_URL`, `MONGODB_DATABASE`,
 * default `packing`), else undefined: what `admin rebuild-read-models` needs. Throws
 * ProfileError when MONGODB_URL is missing.
 */
export function mongoReadStoreFromEnvironment(env: NodeJS.ProcessEnv): MongoReadStoreProfile | undefined {
  if (env['PACKING_READ_STORE']?.trim() !== 'mongodb') return undefined;
  return {
    kind: 'mongodb',
    url: required(env, 'MONGODB_URL', 'with PACKING_READ_STORE=mongodb (e.g. mongodb://localhost:27017)'),
    database: env['MONGODB_DATABASE']?.trim() || 'packing',
  };
}

/**
 * Only the event store part of the profile (`PACKING_EVENT_STORE`, `EVENTSTORE_URL`): what the
 * admin and audit commands need. Throws ProfileError like profileFromEnvironment.
 */
export function eventStoreFromEnvironment(env: NodeJS.ProcessEnv): EventStoreProfile {
  const kind = choice<EventStoreKind>(env, 'PACKING_EVENT_STORE', ['sqlite', 'eventstoredb'], 'sqlite');
  if (kind === 'sqlite') return { kind };
  const namespace = env['EVENTSTORE_NAMESPACE']?.trim() ?? '';
  if (!/^[A-Za-z0-9_.-]*$/.test(namespace)) {
    throw new ProfileError(
      'EVENTSTORE_NAMESPACE',
      `EVENTSTORE_NAMESPACE=${JSON.stringify(namespace)} is not accepted; use letters, digits, '_', '.', '-' (or leave it empty)`,
    );
  }
  return {
    kind,
    url: required(
      env,
      'EVENTSTORE_URL',
      'with PACKING_EVENT_STORE=eventstoredb (e.g. esdb://localhost:2113?tls=false)',
    ),
    namespace,
  };
}
