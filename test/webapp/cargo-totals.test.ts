/**
 * The cargo's totals under the playground's item table (webapp/src/playground/cargo-totals.ts):
 * units, volume and weight are sums over the items (figures from the item, else its template),
 * the vehicles' room sums inner volume and payload times quantity (figures from the entry, else
 * the saved vehicle), and the share is cargo ÷ room; no vehicle, no share; no cargo, share 0.
 */
import t from 'tap';
import { strictEqual } from 'node:assert/strict';
import fc from 'fast-check';
import {
  cargoShare,
  cargoTotals,
  vehicleRoom,
  volumeToDisplay,
  volumeUnitLabel,
  type RequestEntry,
  type SavedFigures,
} from '../../webapp/src/playground/cargo-totals.js';
import { propertyRuns } from '../helpers/property-runs.js';

const TEMPLATES = new Map<string, SavedFigures>([
  ['tpl_crate', { length: 120, width: 80, height: 100, weight: 150 }],
  ['tpl_drum', { shape: 'drum', radius: 30, height: 90, weight: 200 }],
]);
const VEHICLES = new Map<string, SavedFigures>([
  ['van-3-5t', { length: 420, width: 175, height: 190, max_weight: 1100 }],
  ['veh_trailer', { length: 1360, width: 245, height: 270, max_weight: 24000 }],
]);
const close = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));

t.test('a day of cartons, crates from a template and a drum in two vans', async (t) => {
  const items: RequestEntry[] = [
    { label: 'Carton', length: 50, width: 40, height: 30, weight: 10, quantity: 22 },
    { template_id: 'tpl_crate', quantity: 3 },
    { template_id: 'tpl_crate', weight: 90 }, // its own weight over the template's, quantity 1
    { shape: 'cylinder', radius: 10, height: 100, weight: 5 }, // π · 10² · 100 cm³
    { label: 'no size yet', weight: 3, quantity: 4 },
  ];
  const cargo = cargoTotals(items, TEMPLATES);
  t.equal(cargo.units, 22 + 3 + 1 + 1 + 4, 'units: the sum of the quantities (1 when absent)');
  t.ok(close(cargo.volume, 22 * 60_000 + 4 * 960_000 + Math.PI * 10_000), `volume ${cargo.volume} cm³`);
  t.equal(cargo.weight, 220 + 450 + 90 + 5, 'kg: 22 × 10 + 3 × 150 + 90 + 5');
  t.equal(cargo.uncounted, 1, 'the item without a size is counted out');
  const room = vehicleRoom([{ vehicle_id: 'van-3-5t', quantity: 2 }], VEHICLES);
  t.same(room, { vehicles: 2, volume: 2 * 420 * 175 * 190, payload: 2200, uncounted: 0 });
  const share = cargoShare(cargo, room);
  t.ok(share && close(share.volume, cargo.volume / 27_930_000), 'volume ÷ 27.93 m³');
  t.ok(share && close(share.weight, 765 / 2200), 'weight ÷ 2200 kg');
});

t.test('vehicles: overrides, inline vehicles and unknown ones', async (t) => {
  const room = vehicleRoom(
    [
      { vehicle_id: 'veh_trailer', max_weight: 20000 }, // the payload sent overrides the saved one
      { type: 'container', length: 1203, width: 235, height: 239, max_weight: 28000, quantity: 3 },
      { vehicle_id: 'veh_gone', quantity: 2 },
    ],
    VEHICLES,
  );
  t.equal(room.vehicles, 4, '1 trailer and 3 containers');
  t.equal(room.volume, 1360 * 245 * 270 + 3 * 1203 * 235 * 239);
  t.equal(room.payload, 20000 + 3 * 28000);
  t.equal(room.uncounted, 1, 'the unknown saved vehicle is not counted');
  t.equal(cargoShare(cargoTotals([], TEMPLATES), vehicleRoom([], VEHICLES)), null, 'no vehicle: no share');
  t.equal(cargoShare(cargoTotals([], TEMPLATES), vehicleRoom([{ vehicle_id: 'veh_gone' }], VEHICLES)), null);
});

t.test('volumes in m³ or ft³', async (t) => {
  t.equal(volumeToDisplay(27_930_000, 'metric'), 27.93);
  t.equal(volumeUnitLabel('metric'), 'm³');
  t.ok(close(volumeToDisplay(30.48 ** 3 * 10, 'imperial'), 10), '10 ft³');
  t.equal(volumeUnitLabel('imperial'), 'ft³');
});

/** A figure in cm or kg, an integer or with 2 decimals. */
const figure = fc.integer({ min: 0, max: 100_000 }).map((n) => n / 100);
/** A box or drum item with its own figures, or one naming a template, sometimes without a size. */
const item: fc.Arbitrary<RequestEntry> = fc.oneof(
  fc.record(
    { length: figure, width: figure, height: figure, weight: figure, quantity: fc.integer({ min: 1, max: 10000 }) },
    { requiredKeys: ['length', 'width', 'height', 'weight'] },
  ),
  fc.record({ shape: fc.constant('drum'), radius: figure, height: figure, weight: figure }),
  fc.record({
    template_id: fc.constantFrom('tpl_crate', 'tpl_drum', 'tpl_gone'),
    quantity: fc.integer({ min: 1, max: 50 }),
  }),
  fc.record({ label: fc.string(), weight: figure }),
);
const vehicle: fc.Arbitrary<RequestEntry> = fc.record(
  { vehicle_id: fc.constantFrom('van-3-5t', 'veh_trailer'), quantity: fc.integer({ min: 1, max: 100 }) },
  { requiredKeys: ['vehicle_id'] },
);

t.test('property: the totals are the sums over the items, the share is cargo ÷ room', async (t) => {
  fc.assert(
    fc.property(fc.array(item, { maxLength: 30 }), fc.array(vehicle, { maxLength: 4 }), (items, vehicles) => {
      const all = cargoTotals(items, TEMPLATES);
      const each = items.map((i) => cargoTotals([i], TEMPLATES));
      strictEqual(
        all.units,
        each.reduce((n, c) => n + c.units, 0),
      );
      strictEqual(
        all.uncounted,
        each.reduce((n, c) => n + c.uncounted, 0),
      );
      strictEqual(
        close(
          all.volume,
          each.reduce((n, c) => n + c.volume, 0),
        ),
        true,
      );
      strictEqual(
        close(
          all.weight,
          each.reduce((n, c) => n + c.weight, 0),
        ),
        true,
      );
      const room = vehicleRoom(vehicles, VEHICLES);
      const share = cargoShare(all, room);
      strictEqual(share === null, vehicles.length === 0);
      if (share !== null) {
        strictEqual(close(share.volume, all.volume / room.volume), true);
        strictEqual(close(share.weight, all.weight / room.payload), true);
        const none = cargoShare(cargoTotals([], TEMPLATES), room);
        strictEqual(none?.volume, 0);
        strictEqual(none?.weight, 0);
      }
    }),
    propertyRuns(300, 20261203),
  );
  t.pass('totals and shares hold for every generated request');
});
