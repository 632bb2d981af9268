/**
 * A saved cargo template of an organization (stream `template-<id>`, id `tpl_…`; spec Item:
 * "`template_id` supplies every item field"): the spec's Item fields except `id` and
 * `template_id`; `quantity` is kept as the default quantity of items made from it. Lengths in
 * cm, weights in kg. Written by the saved-record decider (domain/saved-record/decide.ts) with
 * this kind.
 */
import type { ItemInput } from '../pack/request.js';
import { savedRecordKind } from '../saved-record/decide.js';
import { templateStream } from './streams.js';

/** The stored fields of a template; `label` always set. */
export type TemplateFields = Omit<ItemInput, 'id' | 'template_id'> & { label: string };

/** Events `TemplateCreated`, `TemplateUpdated`, `TemplateDeleted` with `templateId`; refusal `template_not_found`. */
export const TEMPLATE_RECORD = savedRecordKind('Template', 'templateId', templateStream);
