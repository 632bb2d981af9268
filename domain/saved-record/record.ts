/**
 * What the saved-record aggregates (vehicles, templates) share: who changed a record, its state
 * (status, fields, timestamps, authors) and how Created / Updated / Deleted change that state.
 */

/** Who made a change: the member the API key acts for (spec: `created_by` / `updated_by`). */
export type { Actor } from '../decider/actor.js';
import type { Actor } from '../decider/actor.js';

export interface SavedRecordState<F> {
  status: 'none' | 'active' | 'deleted';
  id: string;
  orgId: string;
  fields: F | null;
  createdAt: string;
  updatedAt: string;
  createdBy: Actor | null;
  updatedBy: Actor | null;
}

export const initialSavedRecord = <F>(): SavedRecordState<F> => ({
  status: 'none',
  id: '',
  orgId: '',
  fields: null,
  createdAt: '',
  updatedAt: '',
  createdBy: null,
  updatedBy: null,
});

/** The state after a Created event. */
export function recordCreated<F>(c: {
  id: string;
  orgId: string;
  fields: F;
  at: string;
  by: Actor;
}): SavedRecordState<F> {
  return {
    status: 'active',
    id: c.id,
    orgId: c.orgId,
    fields: c.fields,
    createdAt: c.at,
    updatedAt: c.at,
    createdBy: c.by,
    updatedBy: c.by,
  };
}

/** The state after an Updated event (`fields` is the whole record after the change). */
export function recordUpdated<F>(state: SavedRecordState<F>, fields: F, at: string, by: Actor): SavedRecordState<F> {
  return { ...state, fields, updatedAt: at, updatedBy: by };
}

/** The state after a Deleted event. */
export function recordDeleted<F>(state: SavedRecordState<F>, at: string, by: Actor): SavedRecordState<F> {
  return { ...state, status: 'deleted', updatedAt: at, updatedBy: by };
}
