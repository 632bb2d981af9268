/** The template decider (given events, when a command, then events or a refusal; fixed clock) and its projection. */
import t from 'tap';
import { templateDecider, type TemplateCommand, type TemplateRules } from '../../../domain/template/decide.js';
import type { TemplateEvent, TemplateFields } from '../../../domain/template/template.js';
import { templatesProjection, TEMPLATES, type TemplateDocument } from '../../../projections/templates/projection.js';
import { MemoryReadStore } from '../../../adapters/memory/read-store.js';
import { deciderSpec, LATER, NOW } from '../../helpers/decider-spec.js';

const olga = { id: 'usr_olga', name: 'Olga' };
const mia = { id: 'usr_mia', name: 'Mia' };
const fields: TemplateFields = { label: 'Carton', length: 60, width: 40, height: 40, weight: 12 };
// Rule of the test: cylinders need a radius (the real rules come from the API layer).
const rules: TemplateRules = (f) => (f.shape === 'cylinder' && f.radius === undefined ? [{ path: 'radius', code: 'required', message: 'radius is required' }] : []);
const decider = templateDecider(rules);

const create: TemplateCommand = { type: 'CreateTemplate', templateId: 'tpl_1', orgId: 'org_a', fields, actor: olga, now: NOW };
const created: TemplateEvent = { type: 'TemplateCreated', data: { templateId: 'tpl_1', orgId: 'org_a', fields, createdAt: NOW, createdBy: olga } };

t.test('create → update → delete, with authors and times', async (t) => {
  const { given } = deciderSpec(t, decider);
  given([]).when(create).then([created]);
  const u = given([created]).when({ type: 'UpdateTemplate', templateId: 'tpl_1', orgId: 'org_a', patch: { shape: 'cylinder', radius: 20 }, actor: mia, now: LATER }).then([
    { type: 'TemplateUpdated', data: { templateId: 'tpl_1', orgId: 'org_a', fields: { ...fields, shape: 'cylinder', radius: 20 }, updatedAt: LATER, updatedBy: mia } },
  ]);
  t.same([u.state.createdBy, u.state.updatedBy, u.state.updatedAt], [olga, mia, LATER]);
  given(u.history).when({ type: 'UpdateTemplate', templateId: 'tpl_1', orgId: 'org_a', patch: {}, actor: olga, now: LATER }).thenNothing('empty patch, no event');
  const d = given(u.history).when({ type: 'DeleteTemplate', templateId: 'tpl_1', orgId: 'org_a', actor: olga, now: LATER }).then([
    { type: 'TemplateDeleted', data: { templateId: 'tpl_1', orgId: 'org_a', deletedAt: LATER, deletedBy: olga } },
  ]);
  given(d.history).when({ type: 'UpdateTemplate', templateId: 'tpl_1', orgId: 'org_a', patch: { label: 'x' }, actor: olga, now: LATER }).thenThrows('template_not_found');
});

t.test('refusals: merged patches checked whole, other organizations, existing ids', async (t) => {
  const { given } = deciderSpec(t, decider);
  given([created]).when({ type: 'UpdateTemplate', templateId: 'tpl_1', orgId: 'org_a', patch: { shape: 'cylinder' }, actor: olga, now: LATER }).thenThrows('validation_failed', [
    { path: 'radius', code: 'required', message: 'radius is required' },
  ]);
  given([created]).when({ type: 'DeleteTemplate', templateId: 'tpl_1', orgId: 'org_b', actor: olga, now: LATER }).thenThrows('template_not_found');
  given([created]).when(create).thenThrows('conflict');
});

t.test('the projection applies each event once', async (t) => {
  const store = new MemoryReadStore();
  const events: TemplateEvent[] = [
    { type: 'TemplateCreated', data: { templateId: 'tpl_1', orgId: 'org_a', fields, createdAt: NOW, createdBy: olga } },
    { type: 'TemplateUpdated', data: { templateId: 'tpl_1', orgId: 'org_a', fields: { ...fields, weight: 13 }, updatedAt: LATER, updatedBy: mia } },
  ];
  const recorded = events.map((e, i) => ({ id: `e${i}`, type: e.type, data: e.data, metadata: {}, stream: 'template-tpl_1', revision: i, position: i + 10, recordedAt: NOW }));
  for (const r of [...recorded, ...recorded]) await templatesProjection.apply(r, store);
  t.same(await store.collection<TemplateDocument>(TEMPLATES).get('tpl_1'), {
    id: 'tpl_1', orgId: 'org_a', fields: { ...fields, weight: 13 }, createdAt: NOW, updatedAt: LATER, createdBy: olga, updatedBy: mia, deleted: false, position: 11,
  });
});
