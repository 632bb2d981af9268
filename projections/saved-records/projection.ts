/**
 * The read model of a saved-record resource (vehicles, templates): one document per
 * `<kind>-<id>` stream, fed by its Created / Updated / Deleted events. Deleted records stay as
 * tombstones (`deleted: true`) so a replayed event cannot revive them.
 */
import type { RecordedEvent } from '../../domain/ports/event-store.js';
import type { Actor } from '../../domain/saved-record/record.js';
import type { FieldPath, IndexSpec, ReadStore } from '../../domain/ports/read-store.js';
import type { Projection } from '../projection.js';

export interface SavedRecordDocument<F> {
  /** `veh_…`, `tpl_…` */
  id: string;
  orgId: string;
  fields: F;
  /** RFC 3339 */
  createdAt: string;
  updatedAt: string;
  createdBy: Actor;
  updatedBy: Actor;
  deleted: boolean;
  /** Global log position of the last event applied. */
  position: number;
}

/**
 * Indexes of a saved-record collection (`vehicles`, `templates`) and the queries they serve:
 * - `orgId, deleted, createdAt↓, id↓`: the list (live records newest first, keyset cursor, `q`
 *   on the org's range) and the `max_saved_items` count of templates.
 * - `orgId, deleted, createdBy.id, createdAt↓, id↓`: `created_by`.
 */
export const SAVED_RECORD_INDEXES: readonly IndexSpec<FieldPath<SavedRecordDocument<object>>>[] = [
  {
    keys: [
      ['orgId', 1],
      ['deleted', 1],
      ['createdAt', -1],
      ['id', -1],
    ],
  },
  {
    keys: [
      ['orgId', 1],
      ['deleted', 1],
      ['createdBy.id', 1],
      ['createdAt', -1],
      ['id', -1],
    ],
  },
];

/**
 * The data of a saved-record event (`<Kind>Created`, `<Kind>Updated`, `<Kind>Deleted`, see
 * domain/saved-record/decide.ts); each event carries its own fields, and the record's id under the kind's id field.
 */
type SavedRecordEventData = Record<string, unknown> & {
  orgId: string;
  fields: unknown;
  createdAt: string;
  createdBy: Actor;
  updatedAt: string;
  updatedBy: Actor;
  deletedAt: string;
  deletedBy: Actor;
};

/**
 * A projection of `<Kind>Created {<idField>, orgId, fields, createdAt, createdBy}`,
 * `<Kind>Updated {<idField>, fields, updatedAt, updatedBy}` and
 * `<Kind>Deleted {<idField>, deletedAt, deletedBy}` on streams starting with `streamPrefix`.
 */
export function savedRecordProjection(spec: {
  name: string;
  collection: string;
  streamPrefix: string;
  kind: string;
  idField: string;
}): Projection {
  return {
    name: spec.name,
    async apply(recorded: RecordedEvent, store: ReadStore): Promise<void> {
      if (!recorded.stream.startsWith(spec.streamPrefix)) return;
      const records = store.collection<SavedRecordDocument<unknown>>(spec.collection);
      const d = recorded.data as SavedRecordEventData;
      const id = String(d[spec.idField]);
      if (recorded.type === `${spec.kind}Created`) {
        if (await records.get(id)) return;
        await records.put({
          id,
          orgId: d['orgId'],
          fields: d['fields'],
          createdAt: d['createdAt'],
          updatedAt: d['createdAt'],
          createdBy: d['createdBy'],
          updatedBy: d['createdBy'],
          deleted: false,
          position: recorded.position,
        });
        return;
      }
      const doc = await records.get(id);
      if (!doc || recorded.position <= doc.position) return;
      doc.position = recorded.position;
      if (recorded.type === `${spec.kind}Updated`) {
        doc.fields = d['fields'];
        doc.updatedAt = d['updatedAt'];
        doc.updatedBy = d['updatedBy'];
      } else if (recorded.type === `${spec.kind}Deleted`) {
        doc.deleted = true;
        doc.updatedAt = d['deletedAt'];
        doc.updatedBy = d['deletedBy'];
      } else return;
      await records.put(doc);
    },
  };
}
