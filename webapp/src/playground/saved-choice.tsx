/**
 * A table of saved records to choose from with a quantity (the playground's vehicles and
 * templates; spec GET /v1/vehicles, /v1/templates, first 100 of each, with a search box that asks
 * the service, `q`). A quantity of 0 leaves the record out of the request.
 */
import { useEffect, useId, useState } from 'react';
import { call } from '../api.js';
import { ErrorBanner } from '../ui/error-banner.js';
import type { Chosen } from './request-builder.js';

/** A saved vehicle or template as listed (only the fields shown here). */
export interface SavedRecord {
  id: string;
  name?: string;
  label?: string;
  type?: string;
  preset?: boolean;
  shape?: string;
  length?: number;
  width?: number;
  height?: number;
  radius?: number;
  max_weight?: number;
  weight?: number;
}

/** "120 × 80 × 150 cm" (or "r 30 × 120 cm" for a round template). */
function sizeOf(r: SavedRecord): string {
  if (r.radius !== undefined && r.length === undefined) return `r ${r.radius} × ${r.height ?? '?'} cm`;
  return `${r.length ?? '?'} × ${r.width ?? '?'} × ${r.height ?? '?'} cm`;
}

/**
 * Lists `path` (`/v1/vehicles` or `/v1/templates`) with a quantity field per record; `chosen`
 * holds the quantities above 0 and `onChange` gets the new list.
 */
export function SavedChoice({ path, title, chosen, onChange }: { path: string; title: string; chosen: readonly Chosen[]; onChange(next: Chosen[]): void }) {
  const searchId = useId();
  const [q, setQ] = useState('');
  const [records, setRecords] = useState<SavedRecord[]>([]);
  const [failure, setFailure] = useState<unknown>(null);

  useEffect(() => {
    let live = true;
    const query = new URLSearchParams({ limit: '100', ...(q.trim() ? { q: q.trim() } : {}) });
    call<{ data: SavedRecord[] }>('GET', `${path}?${query}`)
      .then((list) => live && (setRecords(list.data), setFailure(null)))
      .catch((err: unknown) => live && setFailure(err));
    return () => {
      live = false;
    };
  }, [path, q]);

  const quantityOf = (id: string) => chosen.find((c) => c.id === id)?.quantity ?? 0;
  function set(id: string, quantity: number) {
    const rest = chosen.filter((c) => c.id !== id);
    onChange(quantity >= 1 ? [...rest, { id, quantity }] : rest);
  }

  return (
    <fieldset className="pg-choice">
      <legend>{title}</legend>
      <label htmlFor={searchId}>Search</label> <input id={searchId} type="search" value={q} onChange={(e) => setQ(e.target.value)} />
      <ErrorBanner error={failure} />
      <div className="pg-scroll">
        <table>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Size</th>
              <th scope="col">Weight</th>
              <th scope="col">Quantity</th>
            </tr>
          </thead>
          <tbody>
            {records.map((r) => {
              const name = r.name ?? r.label ?? r.id;
              return (
                <tr key={r.id}>
                  <th scope="row">
                    {name} {r.preset ? <span className="pg-muted">(preset)</span> : null}
                  </th>
                  <td>{sizeOf(r)}</td>
                  <td>{r.max_weight !== undefined ? `max ${r.max_weight} kg` : r.weight !== undefined ? `${r.weight} kg` : ''}</td>
                  <td>
                    <input
                      type="number"
                      min={0}
                      max={10000}
                      step={1}
                      aria-label={`Quantity of ${name}`}
                      value={quantityOf(r.id)}
                      onChange={(e) => set(r.id, Math.max(0, Math.floor(Number(e.target.value) || 0)))}
                    />
                  </td>
                </tr>
              );
            })}
            {records.length === 0 && (
              <tr>
                <td colSpan={4} className="pg-muted">
                  None saved{q ? ' matching the search' : ''}.
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
    </fieldset>
  );
}
