/**
 * The unit of each measured column of an item file (docs/web-app.md, "Playground and jobs"): the
 * unit its header names ("Length (in)", "Weight [lb]", "Height mm"), or, when it names none, the
 * organization's display units (metric: cm and kg; imperial: in and lb). A header naming an
 * unknown or ambiguous unit, or a unit of the other quantity (a weight unit on a length column),
 * is a problem, never a guess. Columns without a quantity (quantity, priority, …) take no length
 * or weight unit; other bracketed words on them ("Qty (pcs)") are ignored as before.
 */
import type { DisplayUnits } from '../units/measure.js';
import {
  API_UNIT,
  IMPERIAL_UNIT,
  UNITS_OF,
  ambiguityOf,
  unitNamed,
  type Quantity,
  type Unit,
} from '../units/unit-names.js';
import type { ItemColumn } from './item-columns.js';

/** What a column's unit is: read from its header, or the organization's display units. */
export type UnitSource = 'header' | 'display units';

/** The unit of a column: `unit` (undefined for columns without a quantity) and where it came from. */
export type ColumnUnit = { unit: Unit | undefined; source: UnitSource } | { problem: string };

/** The quantity a column measures: lengths in cm, weights in kg, or none. */
export const quantityOf = (column: ItemColumn): Quantity | undefined =>
  column.unit === 'cm' ? 'length' : column.unit === 'kg' ? 'weight' : undefined;

const choices = (q: Quantity): string => {
  const symbols = UNITS_OF[q].map((u) => u.symbol);
  return `${symbols.slice(0, -1).join(', ')} or ${symbols[symbols.length - 1]}`;
};

/**
 * The unit of `column` whose header wrote `written` (undefined: no unit), for an organization
 * showing `displayUnits`; or the problem with the header.
 */
export function columnUnit(column: ItemColumn, written: string | undefined, displayUnits: DisplayUnits): ColumnUnit {
  const quantity = quantityOf(column);
  if (written === undefined) {
    if (quantity === undefined) return { unit: undefined, source: 'header' };
    return {
      unit: displayUnits === 'imperial' ? IMPERIAL_UNIT[quantity] : API_UNIT[quantity],
      source: 'display units',
    };
  }
  const unit = unitNamed(written);
  const ambiguous = ambiguityOf(written);
  if (quantity === undefined) {
    // "Qty (pcs)" stays fine; "Priority (kg)" is a mistake worth naming.
    return unit || ambiguous
      ? { problem: `${column.field} takes no unit of length or weight, got "${written}"` }
      : { unit: undefined, source: 'header' };
  }
  if (ambiguous)
    return { problem: `the unit "${written}" is ambiguous (${ambiguous}): ${column.field} takes ${choices(quantity)}` };
  if (!unit) return { problem: `unknown unit "${written}": ${column.field} takes ${choices(quantity)}` };
  if (unit.quantity !== quantity)
    return { problem: `${unit.symbol} is a unit of ${unit.quantity}: ${column.field} takes ${choices(quantity)}` };
  return { unit, source: 'header' };
}

/** A measured column read in a unit other than the API's: its field, header and the units from and to. */
export interface Conversion {
  field: string;
  header: string;
  from: Unit;
  to: Unit;
  source: UnitSource;
}

/** "length (Length (in)): inches → cm (× 2.54)": one line of what an import converted. */
export function describeConversion(c: Conversion): string {
  return `${c.header || c.field}: ${c.from.name} → ${c.to.symbol} (× ${c.from.factor})${c.source === 'display units' ? ", no unit in the header: your organization's display units" : ''}`;
}
