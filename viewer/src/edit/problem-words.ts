/**
 * The verifier's problems in a planner's words, for the viewer's edit mode (plan editing). The
 * verifier (solver/verify) and the service's 422 details speak to API clients: units as
 * `item#instance`, vehicles by their 0-based position in the checked plan, figures to 6 decimals
 * in cm and kg (`x + length = 159.9946 + 159.9946 = 319.9892 cm`), request field names and, in a
 * 422, `operations[i]` paths. Here:
 * - a unit reads as its item's label and instance: `Crate #3`; an item as its label;
 * - a vehicle reads `Vehicle 1`, numbered as the viewer's vehicle list numbers it (the opened
 *   plan's order, 1-based), also when an edit emptied a vehicle the checked plan leaves out;
 * - lengths are rounded as the viewer's panels round them (measure-words.ts: 0.1 cm, i.e. whole
 *   mm, or 0.1 in), areas and volumes to whole cm²/cm³ (in², in³), weights to 0.1 kg (lb),
 *   floor loads to 0.1 kg/m² (lb/ft²), in the organization's display units; a sum such as the
 *   `bounds` one reads as where the unit reaches and by how much;
 * - request field names read as words; a 422 detail names the unit its operation moved instead
 *   of its path.
 * Pure, no DOM (tested from node).
 */
import { isolatedText } from '../../../display/text.js';
import {
  CM_PER_INCH,
  lengthUnitLabel,
  measureToDisplay,
  measureUnitLabel,
  weightToDisplay,
  weightUnitLabel,
  type DisplayUnits,
} from '../../../display/units.js';
import type { EditOperation } from '../../../solver/edit/operations.js';
import type { ProblemUnit } from '../../../solver/edit/plan-check.js';
import { measureWords } from '../measure-words.js';

/** What the names are read from: the opened plan's items and vehicles (ViewerPlan) and its display units. */
export interface NamedPlan {
  items: readonly { id: string; label: string }[];
  vehicles: readonly { vehicle_id: string; copy: number }[];
  display_units?: DisplayUnits;
}

/** The vehicles of a checked plan, in the order the verifier numbers them (PlanCheck.plan). */
export interface CheckedVehicles {
  vehicles: readonly { vehicle_id: string; copy: number }[];
}

/** How the edit mode names units, items and vehicles, and the units it shows figures in. */
export interface PlanNames {
  units: DisplayUnits;
  /** The item ids of the plan (the verifier's unit names start with one). */
  itemIds: readonly string[];
  /** An item by its label (isolated, display/text.ts); an unknown id as itself. */
  item(itemId: string): string;
  /** A unit: its item's label and its instance, `Crate #3`. */
  unit(u: ProblemUnit): string;
  /** The vehicle at `position` of the checked plan (the verifier's numbering), `Vehicle 1`. */
  vehicleAt(position: number): string;
  /** The vehicle at `index` of the opened plan (an operation's `vehicle`), `Vehicle 1`. */
  vehicle(index: number): string;
}

/**
 * The names of `opened` (the revision the editor opened). `checked`: the plan the verifier
 * checked (its vehicles in its order; emptied vehicles are not in it), for vehicleAt; without it
 * a position is taken as an index of the opened plan.
 */
export function planNames(opened: NamedPlan, checked?: CheckedVehicles): PlanNames {
  const labels = new Map<string, string>();
  for (const it of opened.items) if (!labels.has(it.id)) labels.set(it.id, it.label);
  const item = (id: string): string => isolatedText(labels.get(id) ?? id);
  const vehicle = (index: number): string => `Vehicle ${index + 1}`;
  return {
    units: opened.display_units === 'imperial' ? 'imperial' : 'metric',
    itemIds: [...labels.keys()],
    item,
    unit: (u) => `${item(u.item_id)} #${u.instance}`,
    vehicle,
    vehicleAt(position) {
      const v = checked?.vehicles[position];
      const index = v ? opened.vehicles.findIndex((o) => o.vehicle_id === v.vehicle_id && o.copy === v.copy) : -1;
      return vehicle(index >= 0 ? index : position);
    },
  };
}

/** A verifier rule's name in words: `stack_weight` → `stack weight`. */
export function ruleWords(rule: string): string {
  return rule.replaceAll('_', ' ');
}

/** A check's problem (PlanProblem) in words, with its rule: `Crate #2 rests on … (rule stacking)`. */
export function problemWords(problem: { rule: string; message: string }, names: PlanNames): string {
  return `${problemText(problem.message, names)} (rule ${ruleWords(problem.rule)})`;
}

/** One detail of a 422 answer (spec Errors `details[]`). */
export interface ProblemDetail {
  path: string;
  code: string;
  message: string;
}

/** The detail code of an operation the service could not apply (application/plan-revisions.ts). */
const INVALID_OPERATION = 'invalid_operation';

/**
 * A 422 detail of a save in words: the deed of the operation its path names (`Moving Crate #3:
 * …`; `operations` are the ones sent) instead of the path, then the message and the rule. A
 * detail about the plan as a whole (`result`) is its message. No path is ever shown.
 */
export function detailWords(detail: ProblemDetail, operations: readonly EditOperation[], names: PlanNames): string {
  const at = /^operations\[(\d+)\]/.exec(detail.path);
  const op = at ? operations[Number(at[1])] : undefined;
  const invalidOperation = detail.code === INVALID_OPERATION;
  // An operation that could not apply names vehicles by their index in the opened plan.
  const text = problemText(detail.message, names, invalidOperation);
  const isRule = !invalidOperation && (detail.path === 'result' || /^operations\[\d+\]$/.test(detail.path));
  const rule = isRule ? ` (rule ${ruleWords(detail.code)})` : '';
  return `${op ? `${deedWords(op, names)}: ` : ''}${text}${rule}`;
}

/** What an operation did, in words: `Moving Crate #3`, `Taking out Box #1`, `Swapping … and …`. */
export function deedWords(op: EditOperation, names: PlanNames): string {
  if (op.op === 'swap') return `Swapping ${names.unit(op.a)} and ${names.unit(op.b)}`;
  const unit = names.unit(op);
  if (op.op === 'remove') return `Taking out ${unit}`;
  return `${op.op === 'place' ? 'Placing' : 'Moving'} ${unit} in ${names.vehicle(op.vehicle)}`;
}

const NUM = String.raw`-?\d+(?:\.\d+)?`;
const SIDE = String.raw`(length|width|height)`;
/** `x + length = 159.9946 + 159.9946 = 319.9892 cm exceeds the vehicle length 300 cm.` (solver/verify/bounds.ts) */
const BEYOND = new RegExp(
  String.raw`([xyz]) \+ ${SIDE} = ${NUM} \+ ${NUM} = (${NUM}) cm exceeds the vehicle ${SIDE} (${NUM}) cm\.`,
  'g',
);
/** `x = -3 cm is below 0.` (bounds.ts) */
const BELOW = new RegExp(String.raw`\b([xyz]) = (${NUM}) cm is below 0\.`, 'g');
/** `… overlap by 10 × 20 × 30 cm (x × z × y) = 6000 cm³.` (overlap.ts): the sizes along, across, up. */
const OVERLAP_AXES = new RegExp(String.raw` \(x × z × y\) = ${NUM} cm³`, 'g');
/** `blocked area 0 (x 0–120, z 0–80 cm)` (blocked-area.ts): 0-based, the ranges by axis name. */
const BLOCKED_AREA = new RegExp(String.raw`\bblocked area (\d+) \(x (${NUM})–(${NUM}), z (${NUM})–(${NUM}) cm\)`, 'g');
/** `(its vehicles are 0..1)` (solver/edit/operations.ts): the indices an operation may name. */
const VEHICLE_INDICES = /\(its vehicles are 0\.\.(\d+)\)/g;
/** `max_stack_density_kg_m2 is 500` (load-bearing.ts): a floor load without its unit. */
const STACK_DENSITY = new RegExp(String.raw`\bmax_stack_density_kg_m2 is (${NUM})`, 'g');

/** Request fields the verifier's messages name, in words. */
const FIELD_WORDS: readonly [RegExp, string][] = [
  [/\(max_stack_weight\)/g, '(its maximum stack weight)'],
  [/\bthe floor_load_capacity\b/g, 'the floor load capacity'],
  [/\bits max_weight\b/g, 'its maximum weight'],
  [/\baux_deck_max_weight is\b/g, "the second deck's maximum weight is"],
  [/\bmax_stack_items is (\d+)/g, 'at most $1 units may stand in a stack'],
  [/\bcog_range_[xy] allows\b/g, 'the vehicle allows'],
  [/ \(enforce_axle\)/g, ''],
];
/** Any other `snake_case` field name: its words. */
const FIELD = /\b[a-z]+(?:_[a-z0-9]+)+\b/g;

/** Numbers joined into one figure before their unit: `10 × 20 × 30 cm`, `2400 of 4800 cm²`, `x 0–120, z 0–80 cm`. */
const JOIN = String.raw`(?:\s*(?:[+=×]|of)\s*|–|,\s*[xyz]\s+)`;
const FIGURE = new RegExp(String.raw`(?<![\w.#-])(${NUM}(?:${JOIN}${NUM})*) ?(cm³|cm²|cm|kg/m²|kg|%)(?![\w/²³])`, 'g');
const NUMBER = new RegExp(NUM, 'g');

/**
 * Texts set aside while a message is rewritten (names, figures already in words), each standing
 * in as one private-use character, so later rewrites never touch their letters or digits.
 */
class SetAside {
  private readonly texts: string[] = [];
  put(text: string): string {
    this.texts.push(text);
    return String.fromCharCode(0xe000 + this.texts.length - 1);
  }
  back(text: string): string {
    return text.replace(/[\ue000-\uf8ff]/g, (c) => this.texts[c.charCodeAt(0) - 0xe000] ?? c);
  }
}

const escaped = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `value` rounded to `decimals`, thousands separated, never `-0`. */
function grouped(value: number, decimals: number): string {
  return (Number(value.toFixed(decimals)) + 0).toLocaleString('en-US', { maximumFractionDigits: decimals });
}

/**
 * The verifier's `message` in words (see the module comment). `byIndex`: its vehicle numbers
 * are indices of the opened plan (an operation that could not apply), not positions of the
 * checked plan. Text it does not recognise stays as it is.
 */
export function problemText(message: string, names: PlanNames, byIndex = false): string {
  const aside = new SetAside();
  const m = measureWords(names.units);
  const lu = lengthUnitLabel(names.units);
  const imperial = names.units === 'imperial';
  /** A length with its unit; a positive one that rounds to 0 reads "less than 1 mm". */
  const length = (cm: number): string => {
    const text = m.length(cm);
    return cm > 0 && m.figure(cm) === '0' ? `less than ${imperial ? '0.1 in' : '1 mm'}` : text;
  };
  let text = message;

  if (names.itemIds.length > 0) {
    const ids = [...names.itemIds]
      .sort((a, b) => b.length - a.length)
      .map(escaped)
      .join('|');
    text = text.replace(new RegExp(`(?<![\\w#-])(${ids})#(\\d+)(?!\\d)`, 'g'), (_, id: string, n: string) =>
      aside.put(names.unit({ item_id: id, instance: Number(n) })),
    );
    text = text.replace(new RegExp(`\\b([Ii])tem (${ids})(?![\\w#-])`, 'g'), (_, i: string, id: string) =>
      aside.put(i === 'I' ? capitalised(names.item(id)) : names.item(id)),
    );
  }
  text = text.replace(/(?<![\w-])[Vv]ehicle (\d+)(?!\d|\.\d)/g, (_, n: string) =>
    aside.put(byIndex ? names.vehicle(Number(n)) : names.vehicleAt(Number(n))),
  );

  text = text.replace(BEYOND, (_, axis: string, _size: string, end: string, side: string, limit: string) => {
    const [reach, over] = [Number(end), Number(end) - Number(limit)];
    const phrase =
      axis === 'y'
        ? `its top is at ${length(reach)}, ${length(over)} above the vehicle's height of ${length(Number(limit))}.`
        : `it reaches ${length(reach)} ${axis === 'x' ? 'along the length' : 'across the width'}, ${length(over)} beyond the vehicle's ${side} of ${length(Number(limit))}.`;
    return aside.put(phrase);
  });
  text = text.replace(BELOW, (_, axis: string, at: string) => {
    const by = length(-Number(at));
    const where = axis === 'x' ? 'past the front wall' : axis === 'y' ? 'below the floor' : 'past the right wall';
    return aside.put(`it reaches ${by} ${where}.`);
  });
  text = text.replace(OVERLAP_AXES, ' (length × width × height)');
  text = text.replace(BLOCKED_AREA, (_, area: string, x0: string, x1: string, z0: string, z1: string) => {
    const [a, b, c, d] = [x0, x1, z0, z1].map((v) => m.figure(Number(v)));
    return aside.put(`blocked area ${Number(area) + 1} (${a}–${b} ${lu} along the length, ${c}–${d} ${lu} across)`);
  });
  text = text.replace(VEHICLE_INDICES, (_, last: string) => {
    const n = Number(last) + 1;
    return `(the plan has ${n} vehicle${n === 1 ? '' : 's'})`;
  });
  // Heights by the axis name (`at y = 50 cm`): in words.
  text = text.replace(/\bat y = /g, 'at a height of ').replace(/\bspans y = /g, 'spans the heights ');
  text = text.replace(STACK_DENSITY, (_, v: string) =>
    aside.put(
      `the maximum stack density is ${grouped(measureToDisplay(Number(v), 'area-load', names.units), 1)} ${measureUnitLabel('area-load', names.units)}`,
    ),
  );
  for (const [field, words] of FIELD_WORDS) text = text.replace(field, words);
  text = text.replace(FIELD, (f) => f.replaceAll('_', ' '));

  text = text.replace(FIGURE, (_, figures: string, unit: string) => {
    const shown = figures.replace(NUMBER, (n) => figureText(Number(n), unit, names.units));
    if (unit === '%') return aside.put(`${shown}%`);
    return aside.put(`${shown} ${unitText(unit, names.units, lu)}`);
  });
  return aside.back(text);
}

/** One number of a figure in `unit` (the verifier's: cm, cm², cm³, kg, kg/m², %), shown in `units`. */
function figureText(value: number, unit: string, units: DisplayUnits): string {
  switch (unit) {
    case 'cm':
      return measureWords(units).figure(value);
    case 'cm²':
      return grouped(units === 'imperial' ? value / CM_PER_INCH ** 2 : value, 0);
    case 'cm³':
      return grouped(units === 'imperial' ? value / CM_PER_INCH ** 3 : value, 0);
    case 'kg':
      return grouped(weightToDisplay(value, units), 1);
    case 'kg/m²':
      return grouped(measureToDisplay(value, 'area-load', units), 1);
    default:
      // A share short of 100 % never reads 100 % (full support is 100 %).
      return value < 100 && Number(value.toFixed(1)) >= 100 ? '99.9' : grouped(value, 1);
  }
}

/** The unit label of a figure in `units`. */
function unitText(unit: string, units: DisplayUnits, lu: string): string {
  if (unit === 'cm') return lu;
  if (unit === 'cm²') return `${lu}²`;
  if (unit === 'cm³') return `${lu}³`;
  if (unit === 'kg') return weightUnitLabel(units);
  return measureUnitLabel('area-load', units);
}

/** `text` with its first letter upper case (after an opening isolate). */
function capitalised(text: string): string {
  return text.replace(/^(\u2068?)(\p{Ll})/u, (_, iso: string, c: string) => `${iso}${c.toUpperCase()}`);
}
