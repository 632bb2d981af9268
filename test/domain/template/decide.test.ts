import t from 'tap';
import { DomainError } from '../../../domain/decider/decider.js';
import { decideTemplate, type TemplateCommand, type TemplateRules } from '../../../domain/template/decide.js';
import { evolveTemplate, initialTemplate, type TemplateEvent, type TemplateFields, type TemplateState } from '../../../domain/template/template.js';
import { templatesProjection, TEMPLATES, type TemplateDocument } from '../../../projections/templates/projection.js';
import { MemoryReadStore } from '../../../adapters/memory/read-store.js';

const NOW = '2026-11-22T10:00:00.000Z';
const LATER = '2026-11-22T11:00:00.000Z';
const olga = { id: 'usr_olga', name: 'Olga' };
const mia = { id: 'usr_mia', name: 'Mia' };
const fields: TemplateFields = { label: 'Carton', length: 60, width: 40, height: 40, weight: 12 };
// Rule of the test: cylinders need a radius (the real rules come from the API layer).
const rules: TemplateRules = (f) => (f.shape === 'cylinder' && f.radius === undefined ? [{ path: 'radius', code: 'required', message: 'radius is required' }] : []);

function run(state: TemplateState, command: TemplateCommand) {
  const events = decideTemplate(command, state, rules);
  return { events, state: events.reduce(evolveTemplate, state) };
}
const create: TemplateCommand = { type: 'CreateTemplate', templateId: 'tpl_1', orgId: 'org_a', fields, actor: olga, now: NOW };

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
  let s = run(initialTemplate(), create);
  t.same(s.events, [{ type: 'TemplateCreated', data: { templateId: 'tpl_1', orgId: 'org_a', fields, createdAt: NOW, createdBy: olga } }]);
  s = run(s.state, { type: 'UpdateTemplate', templateId: 'tpl_1', orgId: 'org_a', patch: { shape: 'cylinder', radius: 20 }, actor: mia, now: LATER });
  t.same(s.events, [{ type: 'TemplateUpdated', data: { templateId: 'tpl_1', orgId: 'org_a', fields: { ...fields, shape: 'cylinder', radius: 20 }, updatedAt: LATER, updatedBy: mia } }]);
  t.same([s.state.createdBy, s.state.updatedBy, s.state.updatedAt], [olga, mia, LATER]);
  t.same(run(s.state, { type: 'UpdateTemplate', templateId: 'tpl_1', orgId: 'org_a', patch: {}, actor: olga, now: LATER }).events, [], 'empty patch, no event');
  s = run(s.state, { type: 'DeleteTemplate', templateId: 'tpl_1', orgId: 'org_a', actor: olga, now: LATER });
  t.same(s.events.map((e) => e.type), ['TemplateDeleted']);
  t.same(refusal(() => run(s.state, { type: 'UpdateTemplate', templateId: 'tpl_1', orgId: 'org_a', patch: { label: 'x' }, actor: olga, now: LATER })), { code: 'template_not_found' });
});

t.test('refusals: merged patches checked whole, other organizations, existing ids', async (t) => {
  const { state } = run(initialTemplate(), create);
  t.same(refusal(() => run(state, { type: 'UpdateTemplate', templateId: 'tpl_1', orgId: 'org_a', patch: { shape: 'cylinder' }, actor: olga, now: LATER })), {
    code: 'validation_failed',
    details: [{ path: 'radius', code: 'required', message: 'radius is required' }],
  });
  t.same(refusal(() => run(state, { type: 'DeleteTemplate', templateId: 'tpl_1', orgId: 'org_b', actor: olga, now: LATER })), { code: 'template_not_found' });
  t.same(refusal(() => run(state, create)), { code: 'conflict' });
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
