/**
 * The saved records a form field names by id (a project's vehicle slot: `vehicle_id`, spec
 * Project → ProjectVehicle, "a preset or one of the organization's vehicles" of GET /v1/vehicles)
 * as choices a planner types or picks by name: each choice's text is unique among them (the name,
 * or "name (id)" when two records share it), and the text typed is turned back into the id the API
 * expects. Pure, no DOM; tested in test/webapp/record-choices.test.ts.
 */
import { displayText } from '../../../display/text.js';
import {
  lengthToDisplay,
  lengthUnitLabel,
  roundForDisplay,
  weightToDisplay,
  weightUnitLabel,
  type DisplayUnits,
} from '../units/measure.js';
import type { SavedRecord } from '../playground/record-list.js';

/** One record a field can name: its id, the text typed or picked for it, and what it is. */
export interface RecordChoice {
  id: string;
  /** The name, unique among the choices ("Van 3.5 t"; "Van (veh_…)" when names repeat). */
  text: string;
  /** The record's name as saved (bidi formatting removed). */
  name: string;
  /** "preset · truck · 420 × 175 × 190 cm · max 1100 kg", in the display units (0.1 cm/in, 0.1 kg/lb). */
  detail: string;
}

/** Decimals of the sizes and weights in a choice's detail (0.1 cm, 0.1 kg, 0.1 in, 0.1 lb). */
const DETAIL_DECIMALS = 1;

/** "preset · truck · 420 × 175 × 190 cm · max 1100 kg" of a vehicle (a template: shape and unit weight). */
function detailOf(r: SavedRecord, units: DisplayUnits): string {
  const len = (cm: number | undefined) =>
    cm === undefined ? '?' : roundForDisplay(lengthToDisplay(cm, units), DETAIL_DECIMALS);
  const kg = (w: number) => `${roundForDisplay(weightToDisplay(w, units), DETAIL_DECIMALS)} ${weightUnitLabel(units)}`;
  const size =
    r.radius !== undefined && r.length === undefined
      ? `r ${len(r.radius)} × ${len(r.height)} ${lengthUnitLabel(units)}`
      : `${len(r.length)} × ${len(r.width)} × ${len(r.height)} ${lengthUnitLabel(units)}`;
  const weight = r.max_weight !== undefined ? `max ${kg(r.max_weight)}` : r.weight !== undefined ? kg(r.weight) : '';
  return [r.preset ? 'preset' : '', r.type ?? r.shape ?? '', size, weight].filter(Boolean).join(' · ');
}

const key = (text: string): string => text.trim().toLowerCase();

/**
 * The choices of `records` (GET /v1/vehicles order: the organization's own, then the presets),
 * their details in `units`. A name two records share gets the id after it, so each text names one.
 */
export function choicesOf(records: readonly SavedRecord[], units: DisplayUnits): RecordChoice[] {
  const nameOf = (r: SavedRecord) => displayText(r.name ?? r.label ?? r.id).trim() || r.id;
  const uses = new Map<string, number>();
  for (const r of records) uses.set(key(nameOf(r)), (uses.get(key(nameOf(r))) ?? 0) + 1);
  return records.map((r) => {
    const name = nameOf(r);
    const text = (uses.get(key(name)) ?? 0) > 1 && name !== r.id ? `${name} (${r.id})` : name;
    return { id: r.id, text, name, detail: detailOf(r, units) };
  });
}

/**
 * The choice `text` names (case and outer spaces ignored): its unique text, else its id, else
 * a name only one record has; undefined when none does.
 */
export function choiceOfText(choices: readonly RecordChoice[], text: string): RecordChoice | undefined {
  const k = key(text);
  if (k === '') return undefined;
  const byText = choices.find((c) => key(c.text) === k) ?? choices.find((c) => key(c.id) === k);
  if (byText) return byText;
  const byName = choices.filter((c) => key(c.name) === k);
  return byName.length === 1 ? byName[0] : undefined;
}

/**
 * The value the form keeps for `text`: the id of the choice it names, or the text as typed
 * (trimmed) so the service names the problem (`vehicle_not_found` on the slot's `vehicle_id`).
 */
export const idOfText = (choices: readonly RecordChoice[], text: string): string =>
  choiceOfText(choices, text)?.id ?? text.trim();

/** The text shown for the id `id`: its choice's text, or the id itself when no choice has it. */
export const textOfId = (choices: readonly RecordChoice[], id: string): string =>
  choices.find((c) => c.id === id)?.text ?? id;

/** The records of one list: `choices` null while they are read; `failed` when the list could not be read. */
export interface ListChoices {
  choices: readonly RecordChoice[] | null;
  failed: boolean;
}

/**
 * The line under a record field holding `id` (the records are `noun`s: "vehicle"): what the
 * chosen record is ("van-3-5t · preset · truck · …"), that no record has this name or id, or that
 * the list could not be read; undefined while the field is empty or the list is read.
 */
export function choiceNote(list: ListChoices, id: string, noun: string): string | undefined {
  if (list.failed) return `The ${noun} list could not be read: type the ${noun}'s id.`;
  if (list.choices === null || id.trim() === '') return undefined;
  const chosen = list.choices.find((c) => c.id === id);
  return chosen ? `${chosen.id} · ${chosen.detail}` : `No ${noun} has this name or id: pick one from the list.`;
}
