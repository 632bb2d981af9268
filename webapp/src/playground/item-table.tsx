/**
 * The playground's item table (spec PackRequest → Item): one row per item of the request with
 * the fields a planner corrects daily (item-cells.ts), lengths and weights in the organization's
 * display units; rows can be added and deleted. Every input is labelled with its column and the
 * row's name (its id, template or label), e.g. "Quantity of Carton". Fields the table does not
 * show stay in the item untouched. The table fits its box (playground.css: one line per item on a
 * laptop, two below), a label wraps in its cell; under it, the cargo's totals and its share of the
 * request's vehicles (cargo-summary.tsx).
 */
import { useId } from 'react';
import { lengthUnitLabel, weightUnitLabel, type DisplayUnits } from '../units/measure.js';
import { CargoSummary, type SavedRecords } from './cargo-summary.js';
import { carryOrigin } from '../import/item-origins.js';
import {
  cellValue,
  ITEM_COLUMNS,
  newItem,
  ROTATION_CHOICES,
  rowName,
  withCell,
  type ItemColumn,
  type TableItem,
} from './item-cells.js';

/** The header of a column, with its unit for lengths and weights ("Length (cm)"). */
function headerOf(column: ItemColumn, units: DisplayUnits): string {
  if (column.kind === 'length') return `${column.header} (${lengthUnitLabel(units)})`;
  if (column.kind === 'weight') return `${column.header} (${weightUnitLabel(units)})`;
  return column.header;
}

/** One cell's input, labelled "<Column> of <row name>". */
function Cell({
  item,
  column,
  name,
  units,
  onChange,
}: {
  item: TableItem;
  column: ItemColumn;
  name: string;
  units: DisplayUnits;
  onChange: (next: TableItem) => void;
}) {
  const label = `${column.header} of ${name}`;
  const value = cellValue(item, column, units);
  const set = (input: string | boolean) => onChange(withCell(item, column, input, units));
  switch (column.kind) {
    case 'flag':
      return (
        <input type="checkbox" aria-label={label} checked={value === true} onChange={(e) => set(e.target.checked)} />
      );
    case 'rotation':
      return (
        <select aria-label={label} value={String(value)} onChange={(e) => set(e.target.value)}>
          <option value="">default (all)</option>
          {ROTATION_CHOICES.map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
        </select>
      );
    case 'text': {
      // A template row's id defaults to the template id and its label to the template's (spec Item).
      const template = typeof item['template_id'] === 'string' ? item['template_id'] : null;
      const placeholder =
        template === null
          ? undefined
          : column.field === 'id'
            ? template
            : column.field === 'label'
              ? 'template'
              : undefined;
      if (column.field === 'label')
        // A label wraps in its cell (the table fits the window, a long label is read in full); one line of text all the same.
        return (
          <textarea
            aria-label={label}
            value={String(value)}
            title={String(value) || undefined}
            rows={1}
            maxLength={255}
            placeholder={placeholder}
            onKeyDown={(e) => e.key === 'Enter' && e.preventDefault()}
            onChange={(e) => set(e.target.value.replace(/[\r\n]+/g, ' '))}
          />
        );
      return (
        <input
          type="text"
          aria-label={label}
          value={String(value)}
          title={String(value) || undefined}
          maxLength={255}
          placeholder={placeholder}
          onChange={(e) => set(e.target.value)}
        />
      );
    }
    default:
      return (
        <input
          type="number"
          inputMode="decimal"
          aria-label={label}
          // A number, not text: React then leaves "12.0" being typed alone (it equals 12) instead of rewriting it.
          value={value === '' ? '' : Number(value)}
          min={column.kind === 'count' ? 1 : 0}
          max={column.kind === 'count' ? 10000 : undefined}
          step={column.kind === 'count' ? 1 : 'any'}
          onChange={(e) => set(e.target.value)}
        />
      );
  }
}

/** No saved records read (yet). */
const NOT_READ: SavedRecords = { vehicles: null, templates: null };

/** The items of the request as an editable table; `onChange` gets the whole new list. */
export function ItemTable({
  items,
  vehicles = [],
  saved = NOT_READ,
  units,
  onChange,
}: {
  items: readonly TableItem[];
  /** The request's vehicles, for the cargo's share of them under the table. */
  vehicles?: readonly TableItem[];
  /** The saved vehicles and templates the pickers read, for the sizes of those the request names. */
  saved?: SavedRecords;
  units: DisplayUnits;
  onChange: (next: TableItem[]) => void;
}) {
  const captionId = useId();
  const unitNote = `lengths in ${lengthUnitLabel(units)}, weights in ${weightUnitLabel(units)}`;
  // An edited cell keeps the item's file row (import/item-origins.ts) for the estimate's problems.
  const replace = (index: number, next: TableItem) =>
    onChange(items.map((item, i) => (i === index ? carryOrigin(item, next) : item)));
  const remove = (index: number) => onChange(items.filter((_, i) => i !== index));
  const unitCount = items.reduce((n, item) => n + (typeof item['quantity'] === 'number' ? item['quantity'] : 1), 0);
  return (
    <section className="pg-items" aria-labelledby={captionId}>
      <h2 id={captionId}>Items</h2>
      <p className="pg-muted">
        {items.length === 1 ? '1 item' : `${items.length} items`} ({unitCount === 1 ? '1 unit' : `${unitCount} units`});{' '}
        {unitNote}. An empty cell uses the service's default; rows that name a template take every empty field from it.
        Shape, radius, priority, colour and other fields are edited in the JSON below and kept as they are.
      </p>
      <div className="pg-table-scroll" role="region" aria-label="Items table">
        <table className="pg-item-table">
          <thead>
            <tr>
              {ITEM_COLUMNS.map((c) => (
                <th key={c.field} scope="col" data-field={c.field}>
                  {headerOf(c, units)}
                </th>
              ))}
              <th scope="col" data-field="delete">
                <span className="visually-hidden">Delete</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {items.map((item, index) => {
              const name = rowName(items, index);
              return (
                <tr key={index} data-row={index}>
                  {ITEM_COLUMNS.map((c) => (
                    <td key={c.field} data-field={c.field}>
                      <Cell
                        item={item}
                        column={c}
                        name={name}
                        units={units}
                        onChange={(next) => replace(index, next)}
                      />
                    </td>
                  ))}
                  <td data-field="delete">
                    <button
                      type="button"
                      className="secondary"
                      aria-label={`Delete ${name}`}
                      onClick={() => remove(index)}
                    >
                      Delete
                    </button>
                  </td>
                </tr>
              );
            })}
            {items.length === 0 && (
              <tr>
                <td colSpan={ITEM_COLUMNS.length + 1} className="pg-muted" data-field="none">
                  No items yet: add a row, choose cargo templates above or import a file.
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      {items.length > 0 && <CargoSummary items={items} vehicles={vehicles} units={units} saved={saved} />}
      <p className="pg-row-buttons">
        <button type="button" onClick={() => onChange([...items, newItem(items)])}>
          Add an item
        </button>
        {items.length > 0 && (
          <button type="button" className="secondary" onClick={() => onChange([])}>
            Remove all items
          </button>
        )}
      </p>
    </section>
  );
}
