/**
 * The web app's mapping of the API's `details[].path` to form fields (webapp/src/ui/field-errors.ts):
 * exact names, nested paths, the longest field winning, and the rest left for the banner.
 */
import t from 'tap';
import { fieldErrorsOf, pathIsIn } from '../../webapp/src/ui/field-errors.js';

t.test('a path is in a field when it names it or something inside it', async (t) => {
  t.ok(pathIsIn('length', 'length'));
  t.ok(pathIsIn('blocked_areas[0].x', 'blocked_areas'));
  t.ok(pathIsIn('options.time_limit', 'options'));
  t.ok(pathIsIn('$.height', 'height'), 'a leading $. is ignored');
  t.notOk(pathIsIn('length_unit', 'length'), 'a longer name is another field');
  t.notOk(pathIsIn('', 'name'));
});

t.test('details go to their field, the rest to other', async (t) => {
  const details = [
    { path: 'height', code: 'out_of_range', message: 'must be above 0, got -5' },
    { path: 'aux_deck_height', code: 'out_of_range', message: 'must be below the vehicle height 100 cm, got 120' },
    { path: 'blocked_areas[1].x', code: 'out_of_range', message: 'off the floor' },
    { path: 'colour', code: 'unknown_field', message: 'unknown field colour' },
    { path: '', code: 'invalid_json', message: 'the body must be a JSON object' },
  ];
  const got = fieldErrorsOf(details, ['height', 'aux_deck_height', 'blocked_areas', 'aux_deck']);
  t.same(got.byField, {
    height: ['must be above 0, got -5'],
    aux_deck_height: ['must be below the vehicle height 100 cm, got 120'],
    blocked_areas: ['blocked_areas[1].x: off the floor'],
  });
  t.same(
    got.other.map((d) => d.path),
    ['colour', ''],
  );
});

t.test('nested field names take their own details before their parent', async (t) => {
  const got = fieldErrorsOf(
    [{ path: 'options.time_limit', code: 'out_of_range', message: 'too long' }],
    ['options', 'options.time_limit'],
  );
  t.same(got.byField, { 'options.time_limit': ['too long'] });
});
