/**
 * A saved cargo template of an organization (stream `template-<id>`, id `tpl_…`; spec Item:
 * "`template_id` supplies every item field"): the spec's Item fields except `id` and
 * `template_id`; `quantity` is kept as the default quantity of items made from it. Lengths in
 * cm, weights in kg.
 */
import type { DomainEvent } from '../decider/decider.js';
import type { ItemInput } from '../pack/request.js';
import type { Actor } from '../vehicle/vehicle.js';

export type { Actor };

/** The stored fields of a template; `label` always set. */
export type TemplateFields = Omit<ItemInput, 'id' | 'template_id'> & { label: string };

export type TemplateEvent =
  | DomainEvent<'TemplateCreated', { templateId: string; orgId: string; fields: TemplateFields; createdAt: string; createdBy: Actor }>
  /** `fields` is the whole record after the change. */
  | DomainEvent<'TemplateUpdated', { templateId: string; orgId: string; fields: TemplateFields; updatedAt: string; updatedBy: Actor }>
  | DomainEvent<'TemplateDeleted', { templateId: string; orgId: string; deletedAt: string; deletedBy: Actor }>;

export interface TemplateState {
  status: 'none' | 'active' | 'deleted';
  id: string;
  orgId: string;
  fields: TemplateFields | null;
  createdAt: string;
  updatedAt: string;
  createdBy: Actor | null;
  updatedBy: Actor | null;
}

export const initialTemplate = (): TemplateState => ({
  status: 'none',
  id: '',
  orgId: '',
  fields: null,
  createdAt: '',
  updatedAt: '',
  createdBy: null,
  updatedBy: null,
});

export function evolveTemplate(state: TemplateState, event: TemplateEvent): TemplateState {
  switch (event.type) {
    case 'TemplateCreated': {
      const d = event.data;
      return { status: 'active', id: d.templateId, orgId: d.orgId, fields: d.fields, createdAt: d.createdAt, updatedAt: d.createdAt, createdBy: d.createdBy, updatedBy: d.createdBy };
    }
    case 'TemplateUpdated':
      return { ...state, fields: event.data.fields, updatedAt: event.data.updatedAt, updatedBy: event.data.updatedBy };
    case 'TemplateDeleted':
      return { ...state, status: 'deleted', updatedAt: event.data.deletedAt, updatedBy: event.data.deletedBy };
  }
}
