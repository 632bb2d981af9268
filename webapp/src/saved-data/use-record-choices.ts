/**
 * The choices of the lists a form's record fields name (record-choices.ts): every page of each
 * list (`/v1/vehicles`: the organization's vehicles and the presets) read once when the form
 * opens, through the playground's reader (playground/record-list.ts).
 */
import { useEffect, useMemo, useState } from 'react';
import { useDisplayUnits } from '../units/use-display-units.js';
import { readAllRecords, type SavedRecord } from '../playground/record-list.js';
import { choicesOf, type ListChoices } from './record-choices.js';

/** The choices of each of `paths` (`/v1/vehicles`), by path, with their details in the display units. */
export function useRecordChoices(paths: readonly string[]): Readonly<Record<string, ListChoices>> {
  const units = useDisplayUnits();
  const [records, setRecords] = useState<Record<string, SavedRecord[] | 'failed'>>({});
  const joined = [...new Set(paths)].sort().join('\n');
  useEffect(() => {
    if (joined === '') return;
    const abort = new AbortController();
    for (const path of joined.split('\n')) {
      readAllRecords(path, abort.signal)
        .then((all) => !abort.signal.aborted && setRecords((r) => ({ ...r, [path]: all })))
        .catch(() => !abort.signal.aborted && setRecords((r) => ({ ...r, [path]: 'failed' })));
    }
    return () => abort.abort();
  }, [joined]);
  return useMemo(() => {
    const out: Record<string, ListChoices> = {};
    for (const path of joined ? joined.split('\n') : []) {
      const r = records[path];
      out[path] =
        r === 'failed' ? { choices: null, failed: true } : { choices: r ? choicesOf(r, units) : null, failed: false };
    }
    return out;
  }, [joined, records, units]);
}
