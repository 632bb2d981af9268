/**
 * The saved-record decider for each kind (vehicles, templates): given events, when a command,
 * then events or a refusal, fixed clock. The events keep each kind's stored type names and data
 * shapes. Also the kinds' projections: each event applied once, deleted records as tombstones.
 */
import t from 'tap';
import {
  savedRecordDecider,
  type RecordRules,
  type SavedRecordCommand,
  type SavedRecordEvent,
  type SavedRecordKind,
} from '../../../domain/saved-record/decide.js';
import { TEMPLATE_RECORD, type TemplateFields } from '../../../domain/template/template.js';
import { VEHICLE_RECORD, type VehicleFields } from '../../../domain/vehicle/vehicle.js';
import type { ErrorProblem } from '../../../domain/errors.js';
import { vehiclesProjection, VEHICLES } from '../../../projections/vehicles/projection.js';
import { templatesProjection, TEMPLATES } from '../../../projections/templates/projection.js';
import type { SavedRecordDocument } from '../../../projections/saved-records/projection.js';
import type { Projection } from '../../../projections/projection.js';
import { MemoryReadStore } from '../../../adapters/memory/read-store.js';
import { deciderSpec, LATER, NOW } from '../../helpers/decider-spec.js';

const olga = { id: 'usr_olga', name: 'Olga' };
const mia = { id: 'usr_mia', name: 'Mia' };
const by = (actor: typeof olga, now = LATER) => ({ now, actor });

/** One kind under test: its fields, a rule of the test (the real rules come from the API layer), a valid change and an invalid one. */
interface Case<K extends string, I extends string, F extends object> {
  kind: SavedRecordKind<K, I>;
  id: string;
  fields: F;
  rules: RecordRules<F>;
  change: Partial<F>;
  /** A patch the rule refuses, and the problems it answers. */
  invalid: Partial<F>;
  problems: ErrorProblem[];
  /** The stored events of create, `change` and delete, written out (the log keeps them for ever). */
  stored: [SavedRecordEvent<K, I, F>, SavedRecordEvent<K, I, F>, SavedRecordEvent<K, I, F>];
  projection: Projection;
  collection: string;
  stream: string;
}

const vehicleFields: VehicleFields = {
  name: 'Van',
  type: 'truck',
  length: 400,
  width: 180,
  height: 190,
  max_weight: 1000,
};
const vehicle: Case<'Vehicle', 'vehicleId', VehicleFields> = {
  kind: VEHICLE_RECORD,
  id: 'veh_1',
  fields: vehicleFields,
  rules: (f) => (f.height > 100 ? [] : [{ path: 'height', code: 'out_of_range', message: 'too low' }]),
  change: { name: 'Big van', height: 200 },
  invalid: { height: 90 },
  problems: [{ path: 'height', code: 'out_of_range', message: 'too low' }],
  stored: [
    {
      type: 'VehicleCreated',
      data: { vehicleId: 'veh_1', orgId: 'org_a', fields: vehicleFields, createdAt: NOW, createdBy: olga },
    },
    {
      type: 'VehicleUpdated',
      data: {
        vehicleId: 'veh_1',
        orgId: 'org_a',
        fields: { ...vehicleFields, name: 'Big van', height: 200 },
        updatedAt: LATER,
        updatedBy: mia,
      },
    },
    { type: 'VehicleDeleted', data: { vehicleId: 'veh_1', orgId: 'org_a', deletedAt: LATER, deletedBy: olga } },
  ],
  projection: vehiclesProjection,
  collection: VEHICLES,
  stream: 'vehicle-veh_1',
};

const templateFields: TemplateFields = { label: 'Carton', length: 60, width: 40, height: 40, weight: 12 };
const template: Case<'Template', 'templateId', TemplateFields> = {
  kind: TEMPLATE_RECORD,
  id: 'tpl_1',
  fields: templateFields,
  rules: (f) =>
    f.shape === 'cylinder' && f.radius === undefined
      ? [{ path: 'radius', code: 'required', message: 'radius is required' }]
      : [],
  change: { shape: 'cylinder', radius: 20 },
  invalid: { shape: 'cylinder' },
  problems: [{ path: 'radius', code: 'required', message: 'radius is required' }],
  stored: [
    {
      type: 'TemplateCreated',
      data: { templateId: 'tpl_1', orgId: 'org_a', fields: templateFields, createdAt: NOW, createdBy: olga },
    },
    {
      type: 'TemplateUpdated',
      data: {
        templateId: 'tpl_1',
        orgId: 'org_a',
        fields: { ...templateFields, shape: 'cylinder', radius: 20 },
        updatedAt: LATER,
        updatedBy: mia,
      },
    },
    { type: 'TemplateDeleted', data: { templateId: 'tpl_1', orgId: 'org_a', deletedAt: LATER, deletedBy: olga } },
  ],
  projection: templatesProjection,
  collection: TEMPLATES,
  stream: 'template-tpl_1',
};

function kindTests<K extends string, I extends string, F extends object>(c: Case<K, I, F>): void {
  const notFound = c.kind.notFound;
  const [created, updated, deleted] = c.stored;
  const create: SavedRecordCommand<F> = {
    type: 'CreateSavedRecord',
    data: { id: c.id, orgId: 'org_a', fields: c.fields },
    metadata: by(olga, NOW),
  };
  const update = (patch: Partial<F>, orgId = 'org_a', actor = mia): SavedRecordCommand<F> => ({
    type: 'UpdateSavedRecord',
    data: { id: c.id, orgId, patch },
    metadata: by(actor),
  });
  const remove = (orgId = 'org_a', id = c.id): SavedRecordCommand<F> => ({
    type: 'DeleteSavedRecord',
    data: { id, orgId },
    metadata: by(olga),
  });

  t.test(`${c.kind.name}: create → update → delete, with authors and times, as stored events`, async (t) => {
    const { given } = deciderSpec(t, savedRecordDecider(c.kind, c.rules));
    const made = given([]).when(create).then([created]);
    t.same(
      [made.state.status, made.state.id, made.state.orgId, made.state.fields],
      ['active', c.id, 'org_a', c.fields],
    );
    const u = given([created]).when(update(c.change)).then([updated]);
    t.same([u.state.createdAt, u.state.updatedAt, u.state.createdBy, u.state.updatedBy], [NOW, LATER, olga, mia]);
    given(u.history)
      .when(update(c.change, 'org_a', olga))
      .thenNothing('no change, no event');
    given(u.history).when(update({})).thenNothing('empty patch, no event');
    const d = given(u.history).when(remove()).then([deleted]);
    t.same([d.state.status, d.state.updatedAt, d.state.updatedBy], ['deleted', LATER, olga]);
    given(d.history).when(remove()).thenThrows(notFound);
    given(d.history).when(update(c.change)).thenThrows(notFound);
  });

  t.test(
    `${c.kind.name}: refusals: invalid records, merged patches, other organizations, absent ids, existing ids`,
    async (t) => {
      const { given } = deciderSpec(t, savedRecordDecider(c.kind, c.rules));
      given([])
        .when({ ...create, data: { ...create.data, fields: { ...c.fields, ...c.invalid } } })
        .thenThrows('validation_failed', c.problems);
      given([created])
        .when(update(c.invalid))
        .thenThrows('validation_failed', c.problems, 'the merged record is checked whole');
      given([created])
        .when(update(c.change, 'org_b'))
        .thenThrows(notFound, undefined, 'update of another organization');
      given([created]).when(remove('org_b')).thenThrows(notFound, undefined, 'delete of another organization');
      given([])
        .when(remove('org_a', `${c.id}9`))
        .thenThrows(notFound, undefined, 'absent id');
      given([created]).when(create).thenThrows('conflict');
    },
  );

  t.test(
    `${c.kind.name}: the projection applies each event once, and keeps deleted records as tombstones`,
    async (t) => {
      const store = new MemoryReadStore();
      const records = store.collection<SavedRecordDocument<F>>(c.collection);
      const recorded = c.stored.map((e, i) => ({
        id: `e${i}`,
        type: e.type,
        data: e.data,
        metadata: {},
        stream: c.stream,
        revision: i,
        position: i + 1,
        recordedAt: NOW,
      }));
      await c.projection.apply(recorded[0]!, store);
      await c.projection.apply(recorded[1]!, store);
      const afterUpdate = await records.get(c.id);
      await c.projection.apply(recorded[0]!, store);
      await c.projection.apply(recorded[1]!, store);
      t.same(await records.get(c.id), afterUpdate, 'redelivery changes nothing');
      t.same(afterUpdate, {
        id: c.id,
        orgId: 'org_a',
        fields: { ...c.fields, ...c.change },
        createdAt: NOW,
        updatedAt: LATER,
        createdBy: olga,
        updatedBy: mia,
        deleted: false,
        position: 2,
      });
      await c.projection.apply(recorded[2]!, store);
      await c.projection.apply(recorded[1]!, store);
      const tomb = await records.get(c.id);
      t.same(
        [tomb?.deleted, tomb?.fields, tomb?.updatedBy, tomb?.position],
        [true, { ...c.fields, ...c.change }, olga, 3],
      );
    },
  );
}

kindTests(vehicle);
kindTests(template);
