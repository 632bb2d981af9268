/**
 * The write side of the saved-record resources (spec Endpoints: POST, PATCH, DELETE of
 * /v1/vehicles and /v1/templates): one decider, configured per kind (domain/vehicle/vehicle.ts,
 * domain/template/template.ts). Pure: the id, time and actor come in with the command; the field
 * rules come in with the decider (`rules`), so a PATCH is checked against the record it is
 * applied to, whichever writer came last. Caps that span streams (templates' plan cap) are the
 * caller's, on the read model.
 *
 * Stored events keep each kind's names and shapes for ever (the log is forever):
 * `<Kind>Created {<idField>, orgId, fields, createdAt, createdBy}`,
 * `<Kind>Updated {<idField>, orgId, fields, updatedAt, updatedBy}` (`fields`: the whole record
 * after the change), `<Kind>Deleted {<idField>, orgId, deletedAt, deletedBy}`.
 */
import type { Command, Decider, DomainEvent } from '../decider/decider.js';
import { DomainError, type ErrorCode, type ErrorProblem } from '../errors.js';
import {
  initialSavedRecord,
  recordCreated,
  recordDeleted,
  recordUpdated,
  type Actor,
  type SavedRecordState,
} from './record.js';

/** What tells one kind of saved record from another. `name` and `idField` are in the stored log: never change them. */
export interface SavedRecordKind<K extends string, I extends string> {
  /** `Vehicle`: events `VehicleCreated`, `VehicleUpdated`, `VehicleDeleted`. */
  name: K;
  /** The field of event data holding the record's id (`vehicleId`). */
  idField: I;
  /** The record in messages (`vehicle`). */
  noun: string;
  /** The code of an absent, deleted or other organization's record (`vehicle_not_found`). */
  notFound: ErrorCode;
  /** The record's stream (the kind's streams.ts). */
  stream(id: string): string;
}

/** The names whose not-found code is in the vocabulary: `vehicle_not_found` → `Vehicle`. */
type KindName = { [C in ErrorCode]: C extends `${infer N}_not_found` ? Capitalize<N> : never }[ErrorCode];

/** A kind named `name` (`Vehicle`: noun `vehicle`, refusal `vehicle_not_found`), its id in `idField`, on `stream`. */
export function savedRecordKind<K extends KindName, I extends string>(
  name: K,
  idField: I,
  stream: (id: string) => string,
): SavedRecordKind<K, I> {
  const noun = name.toLowerCase();
  // KindName admits only names whose `<noun>_not_found` is an ErrorCode.
  return { name, idField, noun, notFound: `${noun}_not_found` as ErrorCode, stream };
}

type IdOf<I extends string> = { [P in I]: string };

export type SavedRecordEvent<K extends string, I extends string, F> =
  | DomainEvent<`${K}Created`, IdOf<I> & { orgId: string; fields: F; createdAt: string; createdBy: Actor }>
  | DomainEvent<`${K}Updated`, IdOf<I> & { orgId: string; fields: F; updatedAt: string; updatedBy: Actor }>
  | DomainEvent<`${K}Deleted`, IdOf<I> & { orgId: string; deletedAt: string; deletedBy: Actor }>;

/** When and by whom (the member the API key acts for). */
export interface SavedRecordMetadata {
  now: string;
  actor: Actor;
}

/** The commands of every kind (commands are not stored: one set of names serves all kinds). */
export type SavedRecordCommand<F> =
  | Command<'CreateSavedRecord', { id: string; orgId: string; fields: F }, SavedRecordMetadata>
  /** `patch` is merged over the stored fields. */
  | Command<'UpdateSavedRecord', { id: string; orgId: string; patch: Partial<F> }, SavedRecordMetadata>
  | Command<'DeleteSavedRecord', { id: string; orgId: string }, SavedRecordMetadata>;

/** The rules a whole record must meet (JSON Schema and cross-field rules); [] when valid. */
export type RecordRules<F> = (fields: F) => ErrorProblem[];

/** The fold of a kind's events (`evolve`). */
export function savedRecordEvolve<K extends string, I extends string, F>(
  kind: SavedRecordKind<K, I>,
): (state: SavedRecordState<F>, event: SavedRecordEvent<K, I, F>) => SavedRecordState<F> {
  const [created, updated, deleted] = [`${kind.name}Created`, `${kind.name}Updated`, `${kind.name}Deleted`];
  return (state, event) => {
    // The kind is generic, so its event types cannot narrow the union of the data: read it by name.
    const d = event.data as unknown as Record<string, unknown> & { orgId: string; fields: F };
    if (event.type === created) {
      return recordCreated({
        id: String(d[kind.idField]),
        orgId: d.orgId,
        fields: d.fields,
        at: d['createdAt'] as string,
        by: d['createdBy'] as Actor,
      });
    }
    if (event.type === updated)
      return recordUpdated(state, d.fields, d['updatedAt'] as string, d['updatedBy'] as Actor);
    if (event.type === deleted) return recordDeleted(state, d['deletedAt'] as string, d['deletedBy'] as Actor);
    return state;
  };
}

const sameValue = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * The decider of one kind's streams, checking records with `rules`.
 * Create: `conflict` when the id exists; `validation_failed` when `rules` find problems.
 * Update: `<kind>_not_found` unless the record is the organization's and live; the patch is
 * merged over the stored fields and the whole record checked (`validation_failed`); a patch that
 * changes nothing records nothing. Delete: `<kind>_not_found` likewise.
 */
export function savedRecordDecider<K extends string, I extends string, F>(
  kind: SavedRecordKind<K, I>,
  rules: RecordRules<F>,
): Decider<SavedRecordState<F>, SavedRecordCommand<F>, SavedRecordEvent<K, I, F>> {
  type E = SavedRecordEvent<K, I, F>;
  const event = (suffix: 'Created' | 'Updated' | 'Deleted', id: string, data: object): E =>
    ({ type: `${kind.name}${suffix}`, data: { [kind.idField]: id, ...data } }) as unknown as E;

  const refuseInvalid = (problems: ErrorProblem[]): void => {
    const n = problems.length;
    if (n > 0)
      throw new DomainError(
        'validation_failed',
        `The ${kind.noun} is not valid: ${n} problem${n === 1 ? '' : 's'} (see details).`,
        problems,
      );
  };
  /** The fields of the caller's live record (another organization's ids look absent). */
  const ownFields = (state: SavedRecordState<F>, id: string, orgId: string): F => {
    if (state.status !== 'active' || state.orgId !== orgId || !state.fields)
      throw new DomainError(kind.notFound, `no ${kind.noun} ${id}`);
    return state.fields;
  };

  return {
    initialState: initialSavedRecord<F>,
    evolve: savedRecordEvolve<K, I, F>(kind),
    decide(command, state) {
      const { now, actor } = command.metadata;
      const { id, orgId } = command.data;
      switch (command.type) {
        case 'CreateSavedRecord': {
          const { fields } = command.data;
          if (state.status !== 'none') throw new DomainError('conflict', `${kind.noun} ${id} exists already`);
          refuseInvalid(rules(fields));
          return [event('Created', id, { orgId, fields, createdAt: now, createdBy: actor })];
        }
        case 'UpdateSavedRecord': {
          const current = ownFields(state, id, orgId);
          const fields = { ...current, ...command.data.patch };
          refuseInvalid(rules(fields));
          if (sameValue(fields, current)) return [];
          return [event('Updated', id, { orgId, fields, updatedAt: now, updatedBy: actor })];
        }
        case 'DeleteSavedRecord':
          ownFields(state, id, orgId);
          return [event('Deleted', id, { orgId, deletedAt: now, deletedBy: actor })];
      }
    },
  };
}
