/**
 * The file field of the playground that imports items from a CSV or .xlsx file (column layout:
 * docs/web-app.md): on success it hands the items up (cm and kg) and says how many units came in and which
 * columns it converted ("Length (in): inches → cm (× 2.54)"); otherwise it lists every bad cell
 * or header by row and column and hands nothing up (web app: item files). A header may name its unit
 * ("Length (in)", "Weight [lb]", "Height mm"); columns without one are read in the
 * organization's display units (metric: cm and kg; imperial: in and lb).
 */
import { useId, useState, type ChangeEvent } from 'react';
import { describeConversion, type Conversion } from '../import/header-units.js';
import { itemsFromFile } from '../import/item-file.js';
import { describeProblem, type CellProblem } from '../import/item-rows.js';
import { lengthUnitLabel, weightUnitLabel } from '../units/measure.js';
import { useDisplayUnits } from '../units/use-display-units.js';
import type { PackItem } from './pack-request.js';

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

/** Imports items from a chosen file; `onItems` gets them (replacing earlier imported ones). */
export function ItemImportField({ onItems }: { onItems: (items: PackItem[], fileName: string) => void }) {
  const id = useId();
  const hintId = useId();
  const displayUnits = useDisplayUnits();
  const [note, setNote] = useState<string | null>(null);
  const [problems, setProblems] = useState<CellProblem[]>([]);
  const [conversions, setConversions] = useState<Conversion[]>([]);

  async function choose(e: ChangeEvent<HTMLInputElement>) {
    const file = e.target.files?.[0];
    if (!file) return;
    const out = await itemsFromFile(file, { displayUnits });
    const ignored = out.ignored.length > 0 ? ` Columns ignored: ${out.ignored.join(', ')}.` : '';
    if (out.ok) {
      setProblems([]);
      setConversions(out.conversions ?? []);
      const units = out.items.reduce((n, i) => n + (i.quantity ?? 1), 0);
      setNote(`Imported ${plural(out.items.length, 'item')} (${plural(units, 'unit')}) from ${file.name}.${ignored}`);
      onItems(out.items, file.name);
    } else {
      setProblems(out.problems);
      setConversions([]);
      setNote(
        `Nothing imported from ${file.name}: fix ${out.problems.length === 1 ? 'this cell' : `these ${out.problems.length} cells`} and choose the file again.${ignored}`,
      );
    }
    e.target.value = '';
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
