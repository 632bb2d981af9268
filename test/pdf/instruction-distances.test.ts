/**
 * The loading instructions' place words in the PDF's display units: metres for a metric
 * organization ("from 3.2 m"), feet for an imperial one ("from 10.5 ft"), the same block either way.
 */
import t from 'tap';
import { blockPlace } from '../../domain/pack/loading-instructions.js';
import { measures } from '../../pdf/measures.js';

const away = { side: 'left' as const, level: 'stacked' as const, min: { x: 320, y: 120, z: 0 } };
const middle = { side: 'centre' as const, level: 'floor' as const, min: { x: 600, y: 0, z: 80 } };

t.test('metric: metres, as before', async (t) => {
  t.equal(blockPlace(away), 'against the left wall from 3.2 m, on top, 1.2 m up');
  t.equal(blockPlace(away, measures('metric').distance), 'against the left wall from 3.2 m, on top, 1.2 m up');
  t.equal(blockPlace(middle, measures('metric').distance), 'in the middle, 0.8 m from the right wall, from 6 m');
});

t.test('imperial: feet with one decimal (320 cm = 10.5 ft, 120 cm = 3.9 ft)', async (t) => {
  const ft = measures('imperial').distance;
  t.equal(blockPlace(away, ft), 'against the left wall from 10.5 ft, on top, 3.9 ft up');
  t.equal(blockPlace(middle, ft), 'in the middle, 2.6 ft from the right wall, from 19.7 ft');
  t.equal(
    blockPlace({ ...away, min: { x: 0, y: 0, z: 0 }, level: 'floor' }, ft),
    'in the front left corner',
    'at the front wall no distance is written',
  );
});
