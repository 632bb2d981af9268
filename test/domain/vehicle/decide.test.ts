/** The saved-vehicle decider (given events, when a command, then events or a refusal; fixed clock) and its projection. */
import t from 'tap';
import { vehicleDecider, type VehicleCommand, type VehicleRules } from '../../../domain/vehicle/decide.js';
import type { VehicleEvent, VehicleFields } from '../../../domain/vehicle/vehicle.js';
import { vehiclesProjection, VEHICLES, type VehicleDocument } from '../../../projections/vehicles/projection.js';
import { MemoryReadStore } from '../../../adapters/memory/read-store.js';
import { deciderSpec, LATER, NOW } from '../../helpers/decider-spec.js';

const olga = { id: 'usr_olga', name: 'Olga' };
const mia = { id: 'usr_mia', name: 'Mia' };
const fields: VehicleFields = { name: 'Van', type: 'truck', length: 400, width: 180, height: 190, max_weight: 1000 };
// Rule of the test: height must exceed 100 cm (the real rules come from the API layer).
const rules: VehicleRules = (f) => (f.height > 100 ? [] : [{ path: 'height', code: 'out_of_range', message: 'too low' }]);
const decider = vehicleDecider(rules);

const create: VehicleCommand = { type: 'CreateVehicle', vehicleId: 'veh_1', orgId: 'org_a', fields, actor: olga, now: NOW };
const created: VehicleEvent = { type: 'VehicleCreated', data: { vehicleId: 'veh_1', orgId: 'org_a', fields, createdAt: NOW, createdBy: olga } };

t.test('create → update → delete, with authors and times', async (t) => {
  const { given } = deciderSpec(t, decider);
  given([]).when(create).then([created]);
  const u = given([created]).when({ type: 'UpdateVehicle', vehicleId: 'veh_1', orgId: 'org_a', patch: { name: 'Big van', height: 200 }, actor: mia, now: LATER }).then([
    { type: 'VehicleUpdated', data: { vehicleId: 'veh_1', orgId: 'org_a', fields: { ...fields, name: 'Big van', height: 200 }, updatedAt: LATER, updatedBy: mia } },
  ]);
  t.same([u.state.createdAt, u.state.updatedAt, u.state.createdBy, u.state.updatedBy], [NOW, LATER, olga, mia]);
  given(u.history).when({ type: 'UpdateVehicle', vehicleId: 'veh_1', orgId: 'org_a', patch: { height: 200 }, actor: olga, now: LATER }).thenNothing('no change, no event');
  const d = given(u.history).when({ type: 'DeleteVehicle', vehicleId: 'veh_1', orgId: 'org_a', actor: olga, now: LATER }).then([
    { type: 'VehicleDeleted', data: { vehicleId: 'veh_1', orgId: 'org_a', deletedAt: LATER, deletedBy: olga } },
  ]);
  t.equal(d.state.status, 'deleted');
  given(d.history).when({ type: 'DeleteVehicle', vehicleId: 'veh_1', orgId: 'org_a', actor: olga, now: LATER }).thenThrows('vehicle_not_found');
});

t.test('refusals: invalid records, merged patches, other organizations, absent ids, existing ids', async (t) => {
  const { given } = deciderSpec(t, decider);
  const tooLow = [{ path: 'height', code: 'out_of_range', message: 'too low' }];
  given([]).when({ ...create, fields: { ...fields, height: 50 } }).thenThrows('validation_failed', tooLow);
  given([created]).when({ type: 'UpdateVehicle', vehicleId: 'veh_1', orgId: 'org_a', patch: { height: 90 }, actor: olga, now: LATER }).thenThrows('validation_failed', tooLow);
  for (const command of [
    { type: 'UpdateVehicle', vehicleId: 'veh_1', orgId: 'org_b', patch: { name: 'x' }, actor: olga, now: LATER },
    { type: 'DeleteVehicle', vehicleId: 'veh_1', orgId: 'org_b', actor: olga, now: LATER },
  ] as VehicleCommand[]) {
    given([created]).when(command).thenThrows('vehicle_not_found', undefined, `${command.type} of another organization`);
  }
  given([]).when({ type: 'DeleteVehicle', vehicleId: 'veh_9', orgId: 'org_a', actor: olga, now: NOW }).thenThrows('vehicle_not_found');
  given([created]).when(create).thenThrows('conflict');
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
