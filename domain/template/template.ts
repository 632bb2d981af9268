/**
 * A saved cargo template of an organization (stream `template-<id>`, id `tpl_…`; spec Item:
 * "`template_id` supplies every item field"): the spec's Item fields except `id` and
 * `template_id`; `quantity` is kept as the default quantity of items made from it. Lengths in
 * cm, weights in kg.
 */
import type { DomainEvent } from '../decider/decider.js';
import { initialSavedRecord, recordCreated, recordDeleted, recordUpdated, type Actor, type SavedRecordState } from '../saved-record/record.js';
import type { ItemInput } from '../pack/request.js';

export type { Actor };

/** The stored fields of a template; `label` always set. */
export type TemplateFields = Omit<ItemInput, 'id' | 'template_id'> & { label: string };

export type TemplateEvent =
  | DomainEvent<'TemplateCreated', { templateId: string; orgId: string; fields: TemplateFields; createdAt: string; createdBy: Actor }>
  /** `fields` is the whole record after the change. */
  | DomainEvent<'TemplateUpdated', { templateId: string; orgId: string; fields: TemplateFields; updatedAt: string; updatedBy: Actor }>
  | DomainEvent<'TemplateDeleted', { templateId: string; orgId: string; deletedAt: string; deletedBy: Actor }>;

export type TemplateState = SavedRecordState<TemplateFields>;

export const initialTemplate = (): TemplateState => initialSavedRecord<TemplateFields>();

export function evolveTemplate(state: TemplateState, event: TemplateEvent): TemplateState {
  switch (event.type) {
    case 'TemplateCreated': {
      const d = event.data;
      return recordCreated({ id: d.templateId, orgId: d.orgId, fields: d.fields, at: d.createdAt, by: d.createdBy });
    }
    case 'TemplateUpdated':
      return recordUpdated(state, event.data.fields, event.data.updatedAt, event.data.updatedBy);
    case 'TemplateDeleted':
      return recordDeleted(state, event.data.deletedAt, event.data.deletedBy);
  }
}
