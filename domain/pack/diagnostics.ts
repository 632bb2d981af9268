/**
 * Problems and remarks about a request, as the API reports them.
 * ErrorDetail: one entry of the error envelope's `details[]` (spec Errors: `path` is a JSON path
 * such as `items[3].length`, `code` one of the spec's detail codes, `message` English).
 * Warning: one entry of Job/Result `warnings[]` (spec leaves its fields open; we use
 * `code`, `message` and, when it concerns one field, `path`).
 */

/** Detail codes of `422 validation_failed` (spec Errors, second table). */
export type DetailCode =
  | 'required'
  | 'invalid_value'
  | 'out_of_range'
  | 'duplicate_id'
  | 'unknown_vehicle'
  | 'unknown_template'
  | 'type_not_allowed'
  | 'unknown_group'
  | 'does_not_fit'
  | 'too_many_items'
  | 'too_many_vehicles'
  | 'unknown_field'
  | 'invalid_json';

export interface ErrorDetail {
  path: string;
  code: DetailCode;
  message: string;
}

export interface Warning {
  code: string;
  message: string;
  path?: string;
}
