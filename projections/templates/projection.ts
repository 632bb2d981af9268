/**
 * Cargo templates read model (collection `templates`): one document per `template-<id>` stream,
 * read by GET /v1/templates, GET /v1/templates/{id}, the plan cap on creation and pack requests
 * naming a `tpl_…` id.
 */
import type { TemplateFields } from '../../domain/template/template.js';
import { TEMPLATE_STREAM_PREFIX } from '../../domain/template/streams.js';
import { savedRecordProjection, type SavedRecordDocument } from '../saved-records/projection.js';

export const TEMPLATES = 'templates';

export type TemplateDocument = SavedRecordDocument<TemplateFields>;

export const templatesProjection = savedRecordProjection({
  name: 'templates',
  collection: TEMPLATES,
  streamPrefix: TEMPLATE_STREAM_PREFIX,
  kind: 'Template',
  idField: 'templateId',
});
