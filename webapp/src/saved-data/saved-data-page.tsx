/**
 * A saved-data page (spec Endpoints /v1/vehicles, /v1/templates,
 * /v1/projects): the list with search and paging, "New …", Edit and Delete (with confirmation)
 * through /v1 like any API client. Presets (vehicles) are read-only: they can only be copied into
 * a new record.
 */
import { useState, type ReactNode } from 'react';
import { call } from '../api.js';
import { ConfirmDialog } from '../ui/confirm-dialog.js';
import { useConfirmedAction } from '../ui/confirmed-action.js';
import { ErrorBanner } from '../ui/error-banner.js';
import { Label } from '../ui/label.js';
import { Page } from '../ui/page.js';
import { PagedList } from '../ui/paged-list.js';
import { READ_ONLY_KEYS, type FieldSpec, type RowsSpec } from './record-form.js';
import { RecordEditor } from './record-editor.js';

/** A record of a saved-data list: its id and whatever else the kind has. */
export type SavedRecord = Record<string, unknown> & { id: string; preset?: boolean };

/** One column of the list: its heading and cell. */
export interface Column {
  heading: string;
  cell: (r: SavedRecord) => ReactNode;
  numeric?: boolean;
}

/** How a kind of saved record is shown and edited. */
export interface SavedDataKind {
  /** Page title ("Vehicles"). */
  title: string;
  /** One record ("vehicle"). */
  noun: string;
  /** `/v1/vehicles` */
  path: string;
  /** The record's display name (name or label). */
  nameOf: (r: SavedRecord) => string;
  columns: readonly Column[];
  specs: readonly FieldSpec[];
  /** List fields edited as tables (a project's vehicle slots and items). */
  rowSpecs?: readonly RowsSpec[];
  /** The fields a new record starts with beyond the inputs (projects: empty slot and item lists). */
  blank?: Record<string, unknown>;
  intro?: ReactNode;
}

/** Editing state: a new record (maybe copied from one) or an existing one. */
type Editing = { mode: 'new'; from: SavedRecord | null } | { mode: 'edit'; record: SavedRecord };

/** The page of one kind: heading `title`, button "New <noun>", table of records with Edit/Delete (or Copy for presets). */
export function SavedDataPage({ kind }: { kind: SavedDataKind }) {
  const [reloadKey, setReloadKey] = useState(0);
  const [editing, setEditing] = useState<Editing | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [notice, setNotice] = useState<string | null>(null);

  async function open(record: SavedRecord) {
    setError(null);
    try {
      // The list may leave fields out (a project's plan); the record itself has them all.
      const full = await call<SavedRecord>('GET', `${kind.path}/${encodeURIComponent(record.id)}`);
      setEditing({ mode: 'edit', record: full });
    } catch (err) {
      setError(err);
    }
  }

  const deleting = useConfirmedAction<SavedRecord>({
    act: async (r) => {
      await call('DELETE', `${kind.path}/${encodeURIComponent(r.id)}`);
      setNotice(`Deleted ${kind.noun} “${kind.nameOf(r)}”.`);
      if (editing?.mode === 'edit' && editing.record.id === r.id) setEditing(null);
    },
    report: setError,
    after: () => setReloadKey((k) => k + 1),
  });

  const copyOf = (r: SavedRecord): SavedRecord => {
    const copy: SavedRecord = { ...r };
    for (const k of READ_ONLY_KEYS) delete copy[k];
    return copy;
  };

  return (
    <Page
      title={kind.title}
      actions={
        editing ? null : (
          <button type="button" onClick={() => setEditing({ mode: 'new', from: null })}>
            New {kind.noun}
          </button>
        )
      }
    >
      {kind.intro}
      <div aria-live="polite">{notice ? <p className="notice">{notice}</p> : null}</div>
      <ErrorBanner error={error} />
      {editing ? (
        <RecordEditor
          key={editing.mode === 'edit' ? editing.record.id : `new-${editing.from?.id ?? ''}`}
          noun={kind.noun}
          heading={editing.mode === 'edit' ? `Edit ${kind.noun} “${kind.nameOf(editing.record)}”` : `New ${kind.noun}`}
          specs={kind.specs}
          rowSpecs={kind.rowSpecs ?? []}
          record={editing.mode === 'edit' ? editing.record : editing.from ? copyOf(editing.from) : (kind.blank ?? null)}
          onSave={async (body) => {
            const saved =
              editing.mode === 'edit'
                ? await call<SavedRecord>('PATCH', `${kind.path}/${encodeURIComponent(editing.record.id)}`, body)
                : await call<SavedRecord>('POST', kind.path, body);
            setNotice(`Saved ${kind.noun} “${kind.nameOf(saved)}” (${saved.id}).`);
            setReloadKey((k) => k + 1);
          }}
          onDone={() => setEditing(null)}
        />
      ) : null}
      <PagedList<SavedRecord> path={kind.path} searchLabel={`Search ${kind.title.toLowerCase()}`} reloadKey={reloadKey}>
        {(rows) => (
          <div className="table-wrap">
            <table>
              <caption className="visually-hidden">{kind.title}</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  {kind.columns.map((c) => (
                    <th key={c.heading} scope="col" className={c.numeric ? 'num' : undefined}>
                      {c.heading}
                    </th>
                  ))}
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((r) => (
                  <tr key={r.id}>
                    <th scope="row">
                      <Label text={kind.nameOf(r)} /> {r.preset ? <span className="badge">preset</span> : null}
                      <br />
                      <code className="hint">{r.id}</code>
                    </th>
                    {kind.columns.map((c) => (
                      <td key={c.heading} className={c.numeric ? 'num' : undefined}>
                        {c.cell(r)}
                      </td>
                    ))}
                    <td className="actions">
                      {r.preset ? (
                        <button
                          type="button"
                          className="secondary"
                          aria-label={`Copy as new: ${kind.nameOf(r)}`}
                          onClick={() => setEditing({ mode: 'new', from: r })}
                        >
                          Copy as new
                        </button>
                      ) : (
                        <>
                          <button
                            type="button"
                            className="secondary"
                            aria-label={`Edit ${kind.nameOf(r)}`}
                            onClick={() => open(r)}
                          >
                            Edit
                          </button>{' '}
                          <button
                            type="button"
                            className="danger"
                            aria-label={`Delete ${kind.nameOf(r)}`}
                            onClick={() => deleting.ask(r)}
                          >
                            Delete
                          </button>
                        </>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </PagedList>
      <ConfirmDialog
        open={deleting.asking !== null}
        title={`Delete ${kind.noun} “${deleting.asking ? kind.nameOf(deleting.asking) : ''}”?`}
        confirmLabel={`Delete ${kind.noun}`}
        onCancel={deleting.cancel}
        onConfirm={deleting.confirm}
      >
        <p>This cannot be undone. Jobs already run keep their copy.</p>
      </ConfirmDialog>
    </Page>
  );
}
