/**
 * How one kind of saved record is served (spec Endpoints: GET/POST /v1/<records>,
 * GET/PATCH/DELETE /v1/<records>/{id}): its decider kind, path, ids, read model, fields and
 * rules, presets, cap and OpenAPI texts. api/http/routes/vehicles.ts and templates.ts configure
 * one each; api/http/routes/saved-records.ts serves it.
 */
import type { ErrorDetail } from '../../../domain/pack/diagnostics.js';
import type { SavedRecordKind } from '../../../domain/saved-record/decide.js';
import type { Caller } from '../auth/auth.js';
import type { RouteContext } from '../context.js';
import type { JsonSchema } from '../route-docs.js';

/** Read-only records of the service listed beside the organization's (vehicle presets), named by slug ids. */
export interface PresetCatalog {
  /** In the order the list shows them; each has the resource's fields and its text field. */
  list: readonly { id: string }[];
  find(id: string): { id: string } | undefined;
  /** The message of 403 preset_read_only. */
  readOnlyMessage(id: string): string;
}

/** The texts of a resource's OpenAPI operations (summary and, where one, description). */
export interface OperationText {
  summary: string;
  description?: string;
}

/** How one kind of saved record is served. */
export interface SavedRecordResource<K extends string, I extends string, _F extends object> {
  kind: SavedRecordKind<K, I>;
  /** `/v1/vehicles` */
  path: string;
  /** `object` of its records (`vehicle`). */
  object: string;
  /** Ids are `<idPrefix>_…` (`veh`). */
  idPrefix: string;
  /** Collection of its read model. */
  collection: string;
  /** The field `q` matches besides the id (`name`). */
  textField: string;
  /** The fields' schemas, in the order records show them, and the required ones. */
  fields: Record<string, JsonSchema>;
  required: string[];
  /**
   * The rule problems of a whole record for the caller's organization, beyond the Input schema
   * (api/http/saved-record.ts probeProblems). Request-only keys are the schema's to report.
   */
  rules(fields: Record<string, unknown>, caller: Caller): ErrorDetail[];
  presets?: PresetCatalog;
  /** Refuses a creation over the plan's cap (403 plan_limit_reached), counted on the read model. */
  refuseOverCap?(ctx: RouteContext, caller: Caller): Promise<void>;
  docs: {
    /** `Vehicle`: component names `<one>Input`, `<one>Patch`, `<one>List`, operation ids `get<one>`… */
    one: string;
    /** `Vehicles`: the tag and `list<many>`. */
    many: string;
    /** Title of the record's component schema (`SavedVehicle`). */
    recordTitle: string;
    recordDescription: string;
    inputDescription: string;
    list: OperationText;
    get: OperationText;
    create: OperationText;
    update: OperationText;
    delete: OperationText;
  };
}
