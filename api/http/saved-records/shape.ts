/**
 * The shape of a saved-record kind's records: the JSON Schemas of its record, its POST body
 * (`<Kind>Input`) and its PATCH body (`<Kind>Patch`), one source that ajv compiles and the OpenAPI
 * document shows; and the views that write a record or a preset as the API answers it
 * (`{id, object, preset?, <fields in schema order>, created_at, updated_at, created_by, updated_by}`).
 */
import type { SavedRecordState } from '../../../domain/saved-record/record.js';
import type { JsonSchema } from '../route-docs.js';
import { META, RECORD_META_PROPERTIES } from '../saved-record.js';
import type { SavedRecordResource } from './resource.js';

/** The component schemas of a kind: record, Input and Patch, with their titles. */
export interface SavedRecordSchemas {
  inputTitle: string;
  patchTitle: string;
  /** Description of the `id` path parameter and field. */
  idDescription: string;
  inputSchema: JsonSchema;
  patchSchema: JsonSchema;
  recordSchema: JsonSchema;
}

/** The schemas of `resource`'s records and bodies. */
export function savedRecordSchemas<K extends string, I extends string, F extends object>(
  resource: SavedRecordResource<K, I, F>,
): SavedRecordSchemas {
  const { presets, docs } = resource;
  const inputTitle = `${docs.one}Input`;
  const patchTitle = `${docs.one}Patch`;
  const idDescription = presets ? `${resource.idPrefix}_… or a preset slug` : `${resource.idPrefix}_…`;
  const presetProperty: Record<string, JsonSchema> = presets
    ? { preset: { type: 'boolean', description: 'true for the read-only presets of the service' } }
    : {};
  const inputSchema: JsonSchema = {
    title: inputTitle,
    description: docs.inputDescription,
    type: 'object',
    additionalProperties: false,
    required: resource.required,
    properties: resource.fields,
  };
  const patchSchema: JsonSchema = {
    title: patchTitle,
    description: `Any subset of the ${inputTitle} fields; null is not accepted. The record after the change must be a valid ${inputTitle}.`,
    type: 'object',
    additionalProperties: false,
    properties: resource.fields,
  };
  const recordSchema: JsonSchema = {
    title: docs.recordTitle,
    description: docs.recordDescription,
    type: 'object',
    required: ['id', 'object', ...Object.keys(presetProperty), ...resource.required, ...META],
    properties: {
      id: { type: 'string', description: idDescription },
      object: { const: resource.object },
      ...presetProperty,
      ...resource.fields,
      ...RECORD_META_PROPERTIES,
    },
  };
  return { inputTitle, patchTitle, idDescription, inputSchema, patchSchema, recordSchema };
}

/** How the API writes a kind's records and presets, and where presets sort in a list. */
export interface SavedRecordViews<F extends object> {
  recordView: (
    r: Pick<SavedRecordState<F>, 'id' | 'fields' | 'createdAt' | 'updatedAt' | 'createdBy' | 'updatedBy'>,
  ) => Record<string, unknown>;
  presetView: (preset: { id: string }) => Record<string, unknown>;
  /** The list's sort key of the preset at `index` of the catalog. */
  presetSortKey: (index: number) => string;
}

/** The views of `resource`'s records. */
export function savedRecordViews<K extends string, I extends string, F extends object>(
  resource: SavedRecordResource<K, I, F>,
): SavedRecordViews<F> {
  const { presets } = resource;
  const fieldOrder = Object.keys(resource.fields);
  const fieldsView = (fields: object): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    for (const k of fieldOrder) {
      const v = (fields as Record<string, unknown>)[k];
      if (v !== undefined) out[k] = v;
    }
    return out;
  };
  const presetFlag = (preset: boolean) => (presets ? { preset } : {});
  const recordView = (
    r: Pick<SavedRecordState<F>, 'id' | 'fields' | 'createdAt' | 'updatedAt' | 'createdBy' | 'updatedBy'>,
  ): Record<string, unknown> => ({
    id: r.id,
    object: resource.object,
    ...presetFlag(false),
    ...fieldsView(r.fields ?? {}),
    created_at: r.createdAt,
    updated_at: r.updatedAt,
    created_by: r.createdBy,
    updated_by: r.updatedBy,
  });
  const presetView = ({ id, ...fields }: { id: string }): Record<string, unknown> => ({
    id,
    object: resource.object,
    ...presetFlag(true),
    ...fieldsView(fields),
    created_at: null,
    updated_at: null,
    created_by: null,
    updated_by: null,
  });
  // Presets sort after every real timestamp ('0…' < '2…'), in catalog order (the list is newest first).
  const presetSortKey = (index: number): string =>
    `0000-preset-${String((presets?.list.length ?? 0) - index).padStart(4, '0')}`;
  return { recordView, presetView, presetSortKey };
}
