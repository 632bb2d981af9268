import t from 'tap';
import { DomainError } from '../../../domain/decider/decider.js';
import { decideVehicle, type VehicleCommand, type VehicleRules } from '../../../domain/vehicle/decide.js';
import { evolveVehicle, initialVehicle, type VehicleEvent, type VehicleFields, type VehicleState } from '../../../domain/vehicle/vehicle.js';
import { vehiclesProjection, VEHICLES, type VehicleDocument } from '../../../projections/vehicles/projection.js';
import { MemoryReadStore } from '../../../adapters/memory/read-store.js';

const NOW = '2026-11-22T10:00:00.000Z';
const LATER = '2026-11-22T11:00:00.000Z';
const olga = { id: 'usr_olga', name: 'Olga' };
const mia = { id: 'usr_mia', name: 'Mia' };
const fields: VehicleFields = { name: 'Van', type: 'truck', length: 400, width: 180, height: 190, max_weight: 1000 };
// Rule of the test: height must exceed 100 cm (the real rules come from the API layer).
const rules: VehicleRules = (f) => (f.height > 100 ? [] : [{ path: 'height', code: 'out_of_range', message: 'too low' }]);

function run(state: VehicleState, command: VehicleCommand) {
  const events = decideVehicle(command, state, rules);
  return { events, state: events.reduce(evolveVehicle, state) };
}
const create: VehicleCommand = { type: 'CreateVehicle', vehicleId: 'veh_1', orgId: 'org_a', fields, actor: olga, now: NOW };

function refusal(fn: () => unknown): { code: string; details?: unknown } {
  try {
    fn();
  } catch (err) {
    if (err instanceof DomainError) return { code: err.code, ...(err.details ? { details: err.details } : {}) };
    throw err;
  }
  throw new Error('not refused');
}

t.test('create → update → delete, with authors and times', async (t) => {
  let s = run(initialVehicle(), create);
  t.same(s.events, [{ type: 'VehicleCreated', data: { vehicleId: 'veh_1', orgId: 'org_a', fields, createdAt: NOW, createdBy: olga } }]);
  s = run(s.state, { type: 'UpdateVehicle', vehicleId: 'veh_1', orgId: 'org_a', patch: { name: 'Big van', height: 200 }, actor: mia, now: LATER });
  t.same(s.events, [{ type: 'VehicleUpdated', data: { vehicleId: 'veh_1', orgId: 'org_a', fields: { ...fields, name: 'Big van', height: 200 }, updatedAt: LATER, updatedBy: mia } }]);
  t.same([s.state.createdAt, s.state.updatedAt, s.state.createdBy, s.state.updatedBy], [NOW, LATER, olga, mia]);
  t.same(run(s.state, { type: 'UpdateVehicle', vehicleId: 'veh_1', orgId: 'org_a', patch: { height: 200 }, actor: olga, now: LATER }).events, [], 'no change, no event');
  s = run(s.state, { type: 'DeleteVehicle', vehicleId: 'veh_1', orgId: 'org_a', actor: olga, now: LATER });
  t.equal(s.events[0]!.type, 'VehicleDeleted');
  t.equal(s.state.status, 'deleted');
  t.same(refusal(() => run(s.state, { type: 'DeleteVehicle', vehicleId: 'veh_1', orgId: 'org_a', actor: olga, now: LATER })), { code: 'vehicle_not_found' });
});

t.test('refusals: invalid records, merged patches, other organizations, absent ids, existing ids', async (t) => {
  t.same(refusal(() => run(initialVehicle(), { ...create, fields: { ...fields, height: 50 } })), {
    code: 'validation_failed',
    details: [{ path: 'height', code: 'out_of_range', message: 'too low' }],
  });
  const { state } = run(initialVehicle(), create);
  t.equal(refusal(() => run(state, { type: 'UpdateVehicle', vehicleId: 'veh_1', orgId: 'org_a', patch: { height: 90 }, actor: olga, now: LATER })).code, 'validation_failed');
  for (const command of [
    { type: 'UpdateVehicle', vehicleId: 'veh_1', orgId: 'org_b', patch: { name: 'x' }, actor: olga, now: LATER },
    { type: 'DeleteVehicle', vehicleId: 'veh_1', orgId: 'org_b', actor: olga, now: LATER },
  ] as VehicleCommand[]) {
    t.same(refusal(() => run(state, command)), { code: 'vehicle_not_found' }, `${command.type} of another organization`);
  }
  t.same(refusal(() => run(initialVehicle(), { type: 'DeleteVehicle', vehicleId: 'veh_9', orgId: 'org_a', actor: olga, now: NOW })), { code: 'vehicle_not_found' });
  t.same(refusal(() => run(state, create)), { code: 'conflict' });
});

t.test('the projection applies each event once, and keeps deleted vehicles as tombstones', async (t) => {
  const store = new MemoryReadStore();
  const events: VehicleEvent[] = [
    { type: 'VehicleCreated', data: { vehicleId: 'veh_1', orgId: 'org_a', fields, createdAt: NOW, createdBy: olga } },
    { type: 'VehicleUpdated', data: { vehicleId: 'veh_1', orgId: 'org_a', fields: { ...fields, name: 'B' }, updatedAt: LATER, updatedBy: mia } },
    { type: 'VehicleDeleted', data: { vehicleId: 'veh_1', orgId: 'org_a', deletedAt: LATER, deletedBy: olga } },
  ];
  const recorded = events.map((e, i) => ({ id: `e${i}`, type: e.type, data: e.data, metadata: {}, stream: 'vehicle-veh_1', revision: i, position: i + 1, recordedAt: NOW }));
  await vehiclesProjection.apply(recorded[0]!, store);
  await vehiclesProjection.apply(recorded[1]!, store);
  const afterUpdate = await store.collection<VehicleDocument>(VEHICLES).get('veh_1');
  await vehiclesProjection.apply(recorded[0]!, store);
  await vehiclesProjection.apply(recorded[1]!, store);
  t.same(await store.collection<VehicleDocument>(VEHICLES).get('veh_1'), afterUpdate, 'redelivery changes nothing');
  t.same(afterUpdate, { id: 'veh_1', orgId: 'org_a', fields: { ...fields, name: 'B' }, createdAt: NOW, updatedAt: LATER, createdBy: olga, updatedBy: mia, deleted: false, position: 2 });
  await vehiclesProjection.apply(recorded[2]!, store);
  await vehiclesProjection.apply(recorded[1]!, store);
  const tomb = await store.collection<VehicleDocument>(VEHICLES).get('veh_1');
  t.same([tomb?.deleted, tomb?.fields.name, tomb?.position], [true, 'B', 3]);
});
