/**
 * The process profile (DESIGN §2): which roles this process runs and which adapter serves each
 * port, read from the environment and checked at start with one clear message.
 *
 * - `PACKING_ROLES`: comma list of `api`, `projector`, `scheduler`, `solver` (default all four).
 * - `PACKING_EVENT_STORE`: `sqlite` (default, file under `PACKING_DATA_DIR`) or `eventstoredb`
 *   (`EVENTSTORE_URL`, optional `EVENTSTORE_NAMESPACE`: a prefix of every stream name, so several
 *   deployments or test runs can share one server).
 * - `PACKING_READ_STORE`: `sqlite` (default in the embedded profile: read models persisted with
 *   their checkpoints in `<data dir>/read-models.db`, so a start replays only the newer events;
 *   with several processes the projector role writes them and the others read them), `memory`
 *   (default with `PACKING_BUS=nats`; every process that reads keeps its own read models, fed
 *   from the log at every start) or `mongodb` (`MONGODB_URL`, `MONGODB_DATABASE`; the projector
 *   role writes them, the others read them).
 * - `PACKING_BUS`: `inproc` (default; needs the solver role in the same process) or `nats`
 *   (`NATS_URL`).
 */

import { ProfileError, ROLES, type Role } from '../domain/process-profile.js';

import {
  choice,
  eventStoreFromEnvironment,
  mongoReadStoreFromEnvironment,
  required,
  type EventStoreProfile,
  type MongoReadStoreProfile,
} from './store-profile.js';

export { ProfileError, ROLES, type Role };
export {
  eventStoreFromEnvironment,
  mongoReadStoreFromEnvironment,
  type EventStoreKind,
  type EventStoreProfile,
  type MongoReadStoreProfile,
} from './store-profile.js';

export type ReadStoreKind = 'sqlite' | 'memory' | 'mongodb';
export type BusKind = 'inproc' | 'nats';

/** The checked profile of one process. */
export interface Profile {
  roles: ReadonlySet<Role>;
  eventStore: EventStoreProfile;
  readStore: { kind: 'sqlite' } | { kind: 'memory' } | MongoReadStoreProfile;
  bus: { kind: 'inproc' } | { kind: 'nats'; url: string; ackWaitMs: number };
}

/** Default time a solve message may stay unsettled before NATS gives it to another node, s. */
export const DEFAULT_ACK_WAIT_SECONDS = 30;

/**
 * Reads and checks the profile. Throws ProfileError for an unknown role or adapter, a missing
 * connection string, an empty role list, or `PACKING_BUS=inproc` without the `solver` role (the
 * in-process bus reaches only solvers in the same process).
 */
export function profileFromEnvironment(env: NodeJS.ProcessEnv): Profile {
  const rawRoles = env['PACKING_ROLES']?.trim();
  const roles = new Set<Role>();
  if (rawRoles === undefined || rawRoles === '') ROLES.forEach((r) => roles.add(r));
  else {
    for (const part of rawRoles
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)) {
      if (!(ROLES as readonly string[]).includes(part)) {
        throw new ProfileError(
          'PACKING_ROLES',
          `PACKING_ROLES names ${JSON.stringify(part)}; accepted roles (a comma list): ${ROLES.join(', ')}`,
        );
      }
      roles.add(part as Role);
    }
    if (roles.size === 0)
      throw new ProfileError(
        'PACKING_ROLES',
        `PACKING_ROLES is empty; accepted roles (a comma list): ${ROLES.join(', ')}`,
      );
  }

  const busKind = choice<BusKind>(env, 'PACKING_BUS', ['inproc', 'nats'], 'inproc');
  const readStoreKind = choice<ReadStoreKind>(
    env,
    'PACKING_READ_STORE',
    ['sqlite', 'memory', 'mongodb'],
    busKind === 'inproc' ? 'sqlite' : 'memory',
  );

  if (busKind === 'inproc' && !roles.has('solver')) {
    throw new ProfileError(
      'PACKING_BUS',
      `PACKING_BUS=inproc reaches only a solver in the same process, but PACKING_ROLES (${[...roles].join(',')}) lacks solver; use PACKING_BUS=nats or add the solver role`,
    );
  }
  if (busKind === 'inproc' && !roles.has('scheduler')) {
    throw new ProfileError(
      'PACKING_BUS',
      `PACKING_BUS=inproc receives solve commands only from a scheduler in the same process, but PACKING_ROLES (${[...roles].join(',')}) lacks scheduler; use PACKING_BUS=nats or add the scheduler role`,
    );
  }

  let ackWaitMs = DEFAULT_ACK_WAIT_SECONDS * 1000;
  const rawAckWait = env['SOLVER_ACK_WAIT_SECONDS']?.trim();
  if (rawAckWait) {
    const seconds = Number(rawAckWait);
    if (!Number.isFinite(seconds) || seconds < 2 || seconds > 600) {
      throw new ProfileError(
        'SOLVER_ACK_WAIT_SECONDS',
        `SOLVER_ACK_WAIT_SECONDS=${JSON.stringify(rawAckWait)} is not accepted; use a number of seconds from 2 to 600`,
      );
    }
    ackWaitMs = Math.round(seconds * 1000);
  }

  return {
    roles,
    eventStore: eventStoreFromEnvironment(env),
    readStore: readStoreKind !== 'mongodb' ? { kind: readStoreKind } : mongoReadStoreFromEnvironment(env)!,
    bus:
      busKind === 'inproc'
        ? { kind: 'inproc' }
        : {
            kind: 'nats',
            url: required(env, 'NATS_URL', 'with PACKING_BUS=nats (e.g. nats://localhost:4222)'),
            ackWaitMs,
          },
  };
}

/** The embedded profile: one process, every role, SQLite, persisted read models, in-process bus. */
export function isEmbedded(profile: Profile): boolean {
  return profile.bus.kind === 'inproc';
}

/** The embedded default profile (what `npm start` runs with no variables set). */
export const EMBEDDED_PROFILE: Profile = profileFromEnvironment({});
