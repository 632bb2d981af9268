/**
 * Every saved record of a list (spec GET /v1/vehicles, /v1/templates), all pages read
 * (record-list.ts), once per path: the one copy the playground's picker shows and its cargo
 * totals size the request with.
 */
import { useEffect, useState } from 'react';
import { readAllRecords, type SavedRecord } from './record-list.js';

/** The records of a list: null while being read (and when the read failed), and why it failed. */
export interface SavedList {
  records: readonly SavedRecord[] | null;
  failure: unknown;
}

/** Reads every record of `path` (`/v1/vehicles` or `/v1/templates`); read again when `path` changes. */
export function useSavedRecords(path: string): SavedList {
  const [list, setList] = useState<SavedList>({ records: null, failure: null });
  useEffect(() => {
    const abort = new AbortController();
    readAllRecords(path, abort.signal)
      .then((records) => abort.signal.aborted || setList({ records, failure: null }))
      .catch((failure: unknown) => abort.signal.aborted || setList({ records: null, failure }));
    return () => abort.abort();
  }, [path]);
  return list;
}
