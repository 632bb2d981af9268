/**
 * The input of a record field (a project slot's vehicle): a text box tied to a `<datalist>` of
 * the list's records by name (the browser's suggestions narrow as a planner types; arrow keys and
 * Enter pick one), showing the record's name and keeping its id in the form. A name, a unique
 * text or an id typed in full is taken as that record; other text is kept as typed, for the
 * service to refuse (spec ProjectVehicle `vehicle_id`, `vehicle_not_found`).
 */
import { useEffect, useState } from 'react';
import type { FieldInputProps } from '../ui/field.js';
import { choiceOfText, idOfText, textOfId, type RecordChoice } from './record-choices.js';

/** The `<datalist>` of `choices` with the id `id`: each record's unique text, its detail as label. */
export function RecordChoiceList({ id, choices }: { id: string; choices: readonly RecordChoice[] | null }) {
  return (
    <datalist id={id}>
      {(choices ?? []).map((c) => (
        <option key={c.id} value={c.text} label={c.detail} />
      ))}
    </datalist>
  );
}

/**
 * The text box of a field holding the id `value`, suggesting from the datalist `listId`;
 * `onChange(id)` gets the id the typed text names (or the text as typed). Before the list is
 * read (`choices` null) the box shows the id and takes text as typed.
 */
export function RecordChoiceInput({
  input,
  listId,
  value,
  choices,
  onChange,
}: {
  input: FieldInputProps;
  listId: string;
  value: string;
  choices: readonly RecordChoice[] | null;
  onChange: (id: string) => void;
}) {
  // The text as typed, while the form still holds the id it was read as (a removed row above
  // moves another row's id here: the typed text is then dropped).
  const [typed, setTyped] = useState<{ text: string; id: string } | null>(null);
  const own = typed !== null && typed.id === value ? typed : null;

  // Text typed before the list was read names its record once the list is there.
  useEffect(() => {
    if (choices === null || own === null) return;
    const id = idOfText(choices, own.text);
    if (id !== own.id) {
      setTyped({ text: own.text, id });
      onChange(id);
    }
    // Only when the list arrives: a later keystroke resolves itself.
  }, [choices]);

  const shown = own ? own.text : choices ? textOfId(choices, value) : value;
  return (
    <input
      {...input}
      type="text"
      list={listId}
      autoComplete="off"
      spellCheck={false}
      placeholder="Name or id"
      value={shown}
      onChange={(e) => {
        const text = e.target.value;
        const id = choices ? idOfText(choices, text) : text.trim();
        setTyped({ text, id });
        onChange(id);
      }}
      // A record named in full then reads as its list text ("van-3-5t" → "Van 3.5 t").
      onBlur={() => own && choices && choiceOfText(choices, own.text) && setTyped(null)}
    />
  );
}
