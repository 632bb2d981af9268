/**
 * Cargo templates read model (collection `templates`): one document per `template-<id>` stream,
 * read by GET /v1/templates, GET /v1/templates/{id}, the plan cap on creation and pack requests
 * naming a `tpl_…` id. Deleted templates stay as tombstones (`deleted: true`) so a replayed
 * event cannot revive them.
 */
import type { RecordedEvent } from '../../domain/ports/event-store.js';
import type { ReadStore } from '../../domain/ports/read-store.js';
import type { Actor, TemplateEvent, TemplateFields } from '../../domain/template/template.js';
import type { Projection } from '../projection.js';

export const TEMPLATES = 'templates';

export interface TemplateDocument {
  /** `tpl_…` */
  id: string;
  orgId: string;
  fields: TemplateFields;
  /** RFC 3339 */
  createdAt: string;
  updatedAt: string;
  createdBy: Actor;
  updatedBy: Actor;
  deleted: boolean;
  /** Global log position of the last event applied. */
  position: number;
}

export const templatesProjection: Projection = {
  name: 'templates',
  async apply(recorded: RecordedEvent, store: ReadStore): Promise<void> {
    if (!recorded.stream.startsWith('template-')) return;
    const templates = store.collection<TemplateDocument>(TEMPLATES);
    const event = { type: recorded.type, data: recorded.data } as TemplateEvent;
    if (event.type === 'TemplateCreated') {
      const d = event.data;
      if (await templates.get(d.templateId)) return;
      await templates.put({
        id: d.templateId,
        orgId: d.orgId,
        fields: d.fields,
        createdAt: d.createdAt,
        updatedAt: d.createdAt,
        createdBy: d.createdBy,
        updatedBy: d.createdBy,
        deleted: false,
        position: recorded.position,
      });
      return;
    }
    const doc = await templates.get(event.data.templateId);
    if (!doc || recorded.position <= doc.position) return;
    doc.position = recorded.position;
    switch (event.type) {
      case 'TemplateUpdated':
        doc.fields = event.data.fields;
        doc.updatedAt = event.data.updatedAt;
        doc.updatedBy = event.data.updatedBy;
        break;
      case 'TemplateDeleted':
        doc.deleted = true;
        doc.updatedAt = event.data.deletedAt;
        doc.updatedBy = event.data.deletedBy;
        break;
      default:
        return;
    }
    await templates.put(doc);
  },
};
