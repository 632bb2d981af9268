/** The OpenAPI operations of a saved-record kind: list, get, create, update, delete. */
import type { ErrorCode } from '../../../domain/errors.js';
import { ref } from '../openapi/components.js';
import type { ParameterDoc, RouteDoc } from '../route-docs.js';
import { LIST_PARAMETERS } from '../saved-record.js';
import type { SavedRecordResource } from './resource.js';
import type { SavedRecordSchemas } from './shape.js';

/** The operations of `resource`, naming the component schemas of `schemas`. */
export function savedRecordDocs<K extends string, I extends string, F extends object>(
  resource: SavedRecordResource<K, I, F>,
  { inputTitle, patchTitle, idDescription }: SavedRecordSchemas,
): RouteDoc[] {
  const { kind, presets, docs } = resource;
  const idParameter: ParameterDoc = {
    name: 'id',
    in: 'path',
    required: true,
    description: idDescription,
    schema: { type: 'string' },
  };
  const readOnly: ErrorCode[] = presets ? ['preset_read_only'] : [];
  const capped: ErrorCode[] = resource.refuseOverCap ? ['plan_limit_reached'] : [];
  const common = { tags: [docs.many] };
  return [
    {
      method: 'get',
      path: resource.path,
      operationId: `list${docs.many}`,
      ...docs.list,
      ...common,
      scopes: ['resources:read'],
      parameters: LIST_PARAMETERS,
      responses: { '200': { description: `A page of ${docs.many.toLowerCase()}`, schema: ref(`${docs.one}List`) } },
      errors: ['validation_failed'],
    },
    {
      method: 'get',
      path: `${resource.path}/{id}`,
      operationId: `get${docs.one}`,
      ...docs.get,
      ...common,
      scopes: ['resources:read'],
      parameters: [idParameter],
      responses: { '200': { description: `The ${kind.noun}`, schema: ref(docs.recordTitle) } },
      errors: [kind.notFound],
    },
    {
      method: 'post',
      path: resource.path,
      operationId: `create${docs.one}`,
      ...docs.create,
      ...common,
      scopes: ['resources:write'],
      requestBody: { description: `The ${kind.noun}`, schema: ref(inputTitle), required: true },
      responses: { '201': { description: `The saved ${kind.noun}`, schema: ref(docs.recordTitle) } },
      errors: ['invalid_json', 'validation_failed', ...capped, 'payload_too_large'],
    },
    {
      method: 'patch',
      path: `${resource.path}/{id}`,
      operationId: `update${docs.one}`,
      ...docs.update,
      ...common,
      scopes: ['resources:write'],
      parameters: [idParameter],
      requestBody: { description: 'The fields to change', schema: ref(patchTitle), required: true },
      responses: { '200': { description: `The ${kind.noun} after the change`, schema: ref(docs.recordTitle) } },
      errors: ['invalid_json', 'validation_failed', ...readOnly, kind.notFound, 'payload_too_large'],
    },
    {
      method: 'delete',
      path: `${resource.path}/{id}`,
      operationId: `delete${docs.one}`,
      ...docs.delete,
      ...common,
      scopes: ['resources:write'],
      parameters: [idParameter],
      responses: { '200': { description: 'Deleted', schema: ref('Deleted') } },
      errors: [...readOnly, kind.notFound],
    },
  ];
}
