/**
 * The file field of the playground that imports items from a CSV or .xlsx file (column layout:
 * docs/web-app.md): on success it hands the items up (cm and kg) and says how many units came in and which
 * columns it converted ("Length (in): inches → cm (× 2.54)"); otherwise it lists every bad cell
 * or header by row and column and hands nothing up (web app: item files). A header may name its unit
 * ("Length (in)", "Weight [lb]", "Height mm"); columns without one are read in the
 * organization's display units (metric: cm and kg; imperial: in and lb). When the request already
 * has items, nothing is handed up until the planner chooses *Replace the N items* or *Add to
 * them* (no default: either silently would lose or double items). Each imported item keeps the
 * file row it came from (import/item-origins.ts) for the estimate's problems. A CSV template with
 * every column the import reads is offered for download (import/item-template.ts).
 */
import { useId, useState, type ChangeEvent } from 'react';
import { describeConversion, type Conversion } from '../import/header-units.js';
import { itemsFromFile } from '../import/item-file.js';
import { rememberOrigins } from '../import/item-origins.js';
import { describeProblem, type CellProblem } from '../import/item-rows.js';
import { itemTemplateCsv } from '../import/item-template.js';
import { lengthUnitLabel, weightUnitLabel } from '../units/measure.js';
import { useDisplayUnits } from '../units/use-display-units.js';
import type { PackItem } from './pack-request.js';
import type { ImportJoin } from './request-edits.js';

/** Sample files in each display units: the same two lines, with the units in the headers. */
const SAMPLE = {
  metric: [
    'label,length (cm),width (cm),height (cm),weight (kg),quantity,stackable,rotation',
    'Pallet,120,80,150,250,4,false,',
    'Carton,60,40,40,12.5,20,,upright',
  ].join('\n'),
  imperial: [
    'label,length (in),width (in),height (in),weight (lb),quantity,stackable,rotation',
    'Pallet,48,40,60,550,4,false,',
    'Carton,24,16,16,27.5,20,,upright',
  ].join('\n'),
} as const;

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** A file read and waiting for the planner's choice: its items, name and note. */
interface Pending {
  items: PackItem[];
  fileName: string;
  note: string;
}

/**
 * Imports items from a chosen file into a request holding `existing` items: `onImport` gets them
 * and how they join (`replace` or `add`; always `add` when `existing` is 0).
 */
export function ItemImportField({
  existing,
  onImport,
}: {
  existing: number;
  onImport: (items: PackItem[], join: ImportJoin) => void;
}) {
  const id = useId();
  const hintId = useId();
  const choiceId = useId();
  const displayUnits = useDisplayUnits();
  const [note, setNote] = useState<string | null>(null);
  const [problems, setProblems] = useState<CellProblem[]>([]);
  const [conversions, setConversions] = useState<Conversion[]>([]);
  const [pending, setPending] = useState<Pending | null>(null);

  async function choose(e: ChangeEvent<HTMLInputElement>) {
    const file = e.target.files?.[0];
    if (!file) return;
    const out = await itemsFromFile(file, { displayUnits });
    const ignored = out.ignored.length > 0 ? ` Columns ignored: ${out.ignored.join(', ')}.` : '';
    if (out.ok) {
      setProblems([]);
      setConversions(out.conversions ?? []);
      const units = out.items.reduce((n, i) => n + (i.quantity ?? 1), 0);
      const items = rememberOrigins(out.items, out.rows, file.name);
      const read = `${plural(out.items.length, 'item')} (${plural(units, 'unit')}) from ${file.name}.${ignored}`;
      if (existing > 0) {
        setPending({ items, fileName: file.name, note: read });
        setNote(`Read ${read} Replace the request's items or add to them?`);
      } else {
        setPending(null);
        setNote(`Imported ${read}`);
        onImport(items, 'add');
      }
    } else {
      setPending(null);
      setProblems(out.problems);
      setConversions([]);
      setNote(
        `Nothing imported from ${file.name}: fix ${out.problems.length === 1 ? 'this cell' : `these ${out.problems.length} cells`} and choose the file again.${ignored}`,
      );
    }
    e.target.value = '';
  }

  /** The planner's choice for the waiting file. */
  function join(how: ImportJoin) {
    if (!pending) return;
    onImport(pending.items, how);
    setNote(`${how === 'replace' ? 'Replaced' : 'Added to'} the ${plural(existing, 'item')}: imported ${pending.note}`);
    setPending(null);
  }

  const length = lengthUnitLabel(displayUnits);
  const weight = weightUnitLabel(displayUnits);
  return (
    <div className="pg-import">
      <label htmlFor={id}>Import items from a CSV or Excel (.xlsx) file</label>
      <input
        id={id}
        type="file"
        aria-describedby={hintId}
        accept=".csv,.tsv,.txt,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
        onChange={choose}
      />
      <a
        className="pg-muted"
        href={`data:text/csv;charset=utf-8,${encodeURIComponent(SAMPLE[displayUnits])}`}
        download="items.csv"
      >
        Sample CSV
      </a>{' '}
      <a
        className="pg-muted"
        href={`data:text/csv;charset=utf-8,${encodeURIComponent(itemTemplateCsv())}`}
        download="item-template.csv"
      >
        CSV template (every column)
      </a>
      <p id={hintId} className="pg-muted">
        A header may name its unit: Length (in), Weight [lb], Height mm (lengths in mm, cm, m, in or ft; weights in kg,
        g, t, lb or oz). Columns without a unit are read in {length} and {weight}, your organization's display units.
      </p>
      {note && (
        <p role="status" className={problems.length > 0 ? 'pg-failure' : 'pg-ok'}>
          {note}
        </p>
      )}
      {pending && existing > 0 && (
        <div role="group" aria-labelledby={choiceId} className="import-join">
          <p id={choiceId}>
            The request already has {plural(existing, 'item')}: what should the {plural(pending.items.length, 'item')}{' '}
            of {pending.fileName} do?
          </p>
          <button type="button" onClick={() => join('replace')}>
            Replace the {plural(existing, 'item')}
          </button>{' '}
          <button type="button" onClick={() => join('add')}>
            Add to them
          </button>{' '}
          <button
            type="button"
            onClick={() => {
              setPending(null);
              setNote(`Nothing imported from ${pending.fileName}.`);
            }}
          >
            Cancel
          </button>
        </div>
      )}
      {conversions.length > 0 && (
        <ul className="pg-conversions" aria-label="Units converted">
          {conversions.map((c) => (
            <li key={c.field}>{describeConversion(c)}</li>
          ))}
        </ul>
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
