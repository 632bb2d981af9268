/**
 * The file field of the playground that imports items from a CSV or .xlsx file (README column
 * layout): on success it hands the items up and says how many units came in; otherwise it lists
 * every bad cell by row and column and hands nothing up (issue 11 item 4).
 */
import { useId, useState, type ChangeEvent } from 'react';
import { csvFromItems } from '../import/csv.js';
import { itemsFromFile } from '../import/item-file.js';
import { describeProblem, type CellProblem } from '../import/item-rows.js';
import type { PackItem } from './pack-request.js';

const SAMPLE = csvFromItems([
  { label: 'Pallet', length: 120, width: 80, height: 150, weight: 250, quantity: 4, stackable: false },
  { label: 'Carton', length: 60, width: 40, height: 40, weight: 12.5, quantity: 20, rotation: 'upright' },
]);

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Imports items from a chosen file; `onItems` gets them (replacing earlier imported ones). */
export function ItemImportField({ onItems }: { onItems(items: PackItem[], fileName: string): void }) {
  const id = useId();
  const [note, setNote] = useState<string | null>(null);
  const [problems, setProblems] = useState<CellProblem[]>([]);

  async function choose(e: ChangeEvent<HTMLInputElement>) {
    const file = e.target.files?.[0];
    if (!file) return;
    const out = await itemsFromFile(file);
    const ignored = out.ignored.length > 0 ? ` Columns ignored: ${out.ignored.join(', ')}.` : '';
    if (out.ok) {
      setProblems([]);
      const units = out.items.reduce((n, i) => n + (i.quantity ?? 1), 0);
      setNote(`Imported ${plural(out.items.length, 'item')} (${plural(units, 'unit')}) from ${file.name}.${ignored}`);
      onItems(out.items, file.name);
    } else {
      setProblems(out.problems);
      setNote(`Nothing imported from ${file.name}: fix ${out.problems.length === 1 ? 'this cell' : `these ${out.problems.length} cells`} and choose the file again.${ignored}`);
    }
    e.target.value = '';
  }

  return (
    <div className="pg-import">
      <label htmlFor={id}>Import items from a CSV or Excel (.xlsx) file</label>
      <input id={id} type="file" accept=".csv,.tsv,.txt,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" onChange={choose} />
      <a className="pg-muted" href={`data:text/csv;charset=utf-8,${encodeURIComponent(SAMPLE)}`} download="items.csv">
        Sample CSV
      </a>
      {note && (
        <p role="status" className={problems.length > 0 ? 'pg-failure' : 'pg-ok'}>
          {note}
        </p>
      )}
      {problems.length > 0 && (
        <ul className="pg-problems" aria-label="Problems in the file">
          {problems.map((p, i) => (
            <li key={i}>{describeProblem(p)}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
