/**
 * A project's vehicle slot named by name (webapp/src/saved-data/record-choices.ts): every vehicle
 * of GET /v1/vehicles becomes a choice with a unique text (a name two vehicles share gets the id),
 * a typed name, text or id gives back the id the API expects, anything else is kept as typed, an
 * id shows its name, and the note under the field says what the chosen vehicle is.
 */
import t from 'tap';
import fc from 'fast-check';
import { choiceNote, choicesOf, idOfText, textOfId } from '../../webapp/src/saved-data/record-choices.js';

const VEHICLES = [
  { id: 'veh_a1', name: 'Box truck', type: 'truck', length: 720, width: 245, height: 250, max_weight: 6000 },
  { id: 'veh_b2', name: 'Van 3.5 t', type: 'truck', length: 400.04, width: 180, height: 190, max_weight: 8.482177319 },
  {
    id: 'van-3-5t',
    name: 'Van 3.5 t',
    preset: true,
    type: 'truck',
    length: 420,
    width: 175,
    height: 190,
    max_weight: 1100,
  },
  { id: 'rigid-18t', name: 'Rigid truck 18 t', preset: true, type: 'truck', length: 750, width: 248, height: 260 },
];

t.test('each vehicle has a unique text; a shared name carries the id', async (t) => {
  const choices = choicesOf(VEHICLES, 'metric');
  t.same(
    choices.map((c) => c.text),
    ['Box truck', 'Van 3.5 t (veh_b2)', 'Van 3.5 t (van-3-5t)', 'Rigid truck 18 t'],
  );
  t.same(
    choices.map((c) => c.detail),
    [
      'truck · 720 × 245 × 250 cm · max 6000 kg',
      'truck · 400 × 180 × 190 cm · max 8.5 kg',
      'preset · truck · 420 × 175 × 190 cm · max 1100 kg',
      'preset · truck · 750 × 248 × 260 cm',
    ],
    'the details are rounded to 0.1 cm and 0.1 kg',
  );
  t.equal(
    choicesOf(VEHICLES, 'imperial')[0]!.detail,
    'truck · 283.5 × 96.5 × 98.4 in · max 13227.7 lb',
    'in inches and pounds for an imperial organization',
  );
});

t.test('a typed name, text or id is the vehicle id; other text is kept for the service', async (t) => {
  const choices = choicesOf(VEHICLES, 'metric');
  t.equal(idOfText(choices, 'Box truck'), 'veh_a1', 'by name');
  t.equal(idOfText(choices, '  box TRUCK '), 'veh_a1', 'case and spaces ignored');
  t.equal(idOfText(choices, 'Van 3.5 t (van-3-5t)'), 'van-3-5t', 'by the text of a shared name');
  t.equal(idOfText(choices, 'van-3-5t'), 'van-3-5t', 'by id');
  t.equal(idOfText(choices, 'Van 3.5 t'), 'Van 3.5 t', 'a name two vehicles share names neither');
  t.equal(idOfText(choices, 'Rigid'), 'Rigid', 'a part of a name is no vehicle');
  t.equal(textOfId(choices, 'rigid-18t'), 'Rigid truck 18 t', 'an id shows its name');
  t.equal(textOfId(choices, 'veh_gone'), 'veh_gone', 'an id no vehicle has shows as it is');
});

t.test('the note under the field', async (t) => {
  const choices = choicesOf(VEHICLES, 'metric');
  t.equal(
    choiceNote({ choices, failed: false }, 'van-3-5t', 'vehicle'),
    'van-3-5t · preset · truck · 420 × 175 × 190 cm · max 1100 kg',
  );
  t.equal(
    choiceNote({ choices, failed: false }, 'Rigid', 'vehicle'),
    'No vehicle has this name or id: pick one from the list.',
  );
  t.equal(choiceNote({ choices, failed: false }, '', 'vehicle'), undefined, 'nothing under an empty field');
  t.equal(choiceNote({ choices: null, failed: false }, 'van-3-5t', 'vehicle'), undefined, 'nothing while read');
  t.equal(
    choiceNote({ choices: null, failed: true }, '', 'vehicle'),
    "The vehicle list could not be read: type the vehicle's id.",
  );
});

t.test('property: every choice text names its own vehicle, and its id shows that text', async (t) => {
  const name = fc.constantFrom('Van', 'van ', 'Box truck', 'Trailer', 'A', 'a');
  fc.assert(
    fc.property(
      fc.uniqueArray(fc.record({ id: fc.stringMatching(/^veh_[a-z0-9]{1,4}$/), name }), {
        selector: (v) => v.id,
        maxLength: 12,
      }),
      (vehicles) => {
        const choices = choicesOf(vehicles, 'metric');
        return choices.every(
          (c) =>
            idOfText(choices, c.text) === c.id &&
            textOfId(choices, c.id) === c.text &&
            idOfText(choices, c.id) === c.id,
        );
      },
    ),
    { numRuns: 300 },
  );
  t.pass('texts and ids agree');
});
