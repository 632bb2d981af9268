/**
 * The routes of a saved-record resource (spec Endpoints: GET/POST /v1/<records>,
 * GET/PATCH/DELETE /v1/<records>/{id}; saved data; Deleted), one factory configured per kind:
 * api/http/routes/vehicles.ts, api/http/routes/templates.ts. Writes are commands of the saved-record
 * decider (domain/saved-record/decide.ts) on the kind's streams; reads come from the kind's
 * projection (projections/saved-records) and, for kinds with presets, the preset catalog.
 *
 * Record: `{id, object, preset?, <every field that was set, in schema order>, created_at,
 * updated_at, created_by: {id, name}, updated_by: {id, name}}`; `preset` only for kinds with
 * presets (false for own records; presets have null timestamps and authors). POST body
 * (`<Kind>Input`): the kind's fields, every problem answered at once (400 invalid_json for a
 * wrong JSON type, else 422 validation_failed). PATCH (`<Kind>Patch`): any subset of the same
 * fields, null not allowed; the merged record is checked again as a whole (422). A PATCH that
 * changes nothing leaves updated_at as it was. DELETE answers `Deleted`. Presets answer 403
 * preset_read_only to PATCH and DELETE; a kind with a cap answers 403 plan_limit_reached to a
 * POST over it (the body is validated first).
 *
 * List: the organization's records newest first, then the presets in catalog order, one cursor
 * across both; `q` matches the text field or id; `created_by` lists own records only.
 */
import { Router, type Request } from 'express';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { sharedOnFirstUse, validatorOnFirstUse } from '../schema-validator.js';
import { handleCommand } from '../../../domain/decider/handle.js';
import type { ErrorDetail } from '../../../domain/pack/diagnostics.js';
import type { FieldPath, Where } from '../../../domain/ports/read-store.js';
import { savedRecordDecider, type SavedRecordCommand } from '../../../domain/saved-record/decide.js';
import type { SavedRecordState } from '../../../domain/saved-record/record.js';
import type { SavedRecordDocument } from '../../../projections/saved-records/projection.js';
import { actorOf } from '../auth/actor.js';
import { authenticate, callerOf, type Caller } from '../auth/auth.js';
import { jsonBody } from '../body.js';
import { ApiError } from '../errors.js';
import { newId } from '../../../application/id.js';
import { listPage, matchesText, page, parseListQuery, textSearch } from '../paging.js';
import { ROUTER_OPTIONS, type RouteModule } from '../route-docs.js';
import { distinctProblems, listSchema, refuseProblems, requireObject, schemaProblemsOf } from '../saved-record.js';
import type { RouteContext } from '../context.js';
import type { SavedRecordResource } from '../saved-records/resource.js';
import { savedRecordSchemas, savedRecordViews } from '../saved-records/shape.js';
import { savedRecordDocs } from '../saved-records/docs.js';

const idParam = (req: Request): string => String(req.params['id']);

/** The route module of one kind of saved record: router, OpenAPI docs and its component schemas. */
export function savedRecordRoutes<K extends string, I extends string, F extends object>(
  resource: SavedRecordResource<K, I, F>,
): RouteModule {
  const { kind, presets, docs } = resource;
  type Doc = SavedRecordDocument<F>;

  const schemas = savedRecordSchemas(resource);
  const { inputTitle, patchTitle, inputSchema, patchSchema, recordSchema } = schemas;
  const { recordView, presetView, presetSortKey } = savedRecordViews<K, I, F>(resource);

  const ajv = sharedOnFirstUse(() => new Ajv2020({ allErrors: true, strict: true, verbose: true }));
  const validateInput = validatorOnFirstUse(() => ajv().compile(inputSchema));
  const validatePatch = validatorOnFirstUse(() => ajv().compile(patchSchema));

  /** Every problem of a whole record: the Input schema, then the kind's rules. */
  const problems = (fields: Record<string, unknown>, caller: Caller): ErrorDetail[] =>
    distinctProblems(schemaProblemsOf(validateInput, fields), resource.rules(fields, caller));

  // ---- reads and writes

  const idPattern = new RegExp(`^${resource.idPrefix}_[a-z0-9]+$`);
  const what = presets ? `preset or ${kind.noun}` : kind.noun;

  function router(ctx: RouteContext): Router {
    const router = Router(ROUTER_OPTIONS);
    const collection = () => ctx.reads.collection<Doc>(resource.collection);

    async function ownRecord(caller: Caller, id: string): Promise<Doc> {
      const doc = idPattern.test(id) ? await collection().get(id) : undefined;
      if (!doc || doc.deleted || doc.orgId !== caller.orgId)
        throw new ApiError(kind.notFound, `no ${what} of the organization has the id "${id}"`);
      return doc;
    }
    function refusePreset(id: string): void {
      if (presets?.find(id)) throw new ApiError('preset_read_only', presets.readOnlyMessage(id));
    }
    /** Runs `command` on the record's stream and waits until the read model has it. */
    async function handle(caller: Caller, command: SavedRecordCommand<F>): Promise<SavedRecordState<F>> {
      const decider = savedRecordDecider(kind, (fields: F) => problems(fields as Record<string, unknown>, caller));
      const done = await handleCommand(ctx.store, kind.stream(command.data.id), decider, command);
      await ctx.projections.waitFor(done.position);
      return done.state;
    }
    const metadata = (caller: Caller) => ({ now: ctx.clock(), actor: actorOf(caller) });

    router.get(resource.path, authenticate(ctx, 'resources:read'), async (req, res) => {
      const caller = callerOf(res);
      const query = parseListQuery(req.query, caller);
      const ownPage = await listPage(
        collection(),
        {
          // The fields' type is the kind's, so the paths are checked here, not by the compiler.
          where: {
            orgId: caller.orgId,
            deleted: false,
            ...(query.createdBy !== null ? { 'createdBy.id': query.createdBy } : {}),
          } as Where<Doc>,
          ...textSearch<Doc>(query.q, [`fields.${resource.textField}` as FieldPath<Doc>, 'id']),
        },
        query,
      );
      // Own records fill this page and more follow (or there are no presets): the page as it is.
      if (!presets || ownPage.next_cursor !== '') {
        res.json({ data: ownPage.data.map(recordView), next_cursor: ownPage.next_cursor });
        return;
      }
      // Every own record after the cursor is here: page them with the presets behind them.
      const own = ownPage.data.map((d) => ({ createdAt: d.createdAt, id: d.id, view: () => recordView(d) }));
      const shown =
        query.createdBy !== null
          ? []
          : presets.list.flatMap((p, i) =>
              matchesText(query.q, (p as Record<string, unknown>)[resource.textField] as string, p.id)
                ? [{ createdAt: presetSortKey(i), id: p.id, view: () => presetView(p) }]
                : [],
            );
      const { data, next_cursor } = page([...own, ...shown], query);
      res.json({ data: data.map((e) => e.view()), next_cursor });
    });

    router.get(`${resource.path}/:id`, authenticate(ctx, 'resources:read'), async (req, res) => {
      const id = idParam(req);
      const preset = presets?.find(id);
      res.json(preset ? presetView(preset) : recordView(await ownRecord(callerOf(res), id)));
    });

    router.post(resource.path, authenticate(ctx, 'resources:write'), async (req, res) => {
      const caller = callerOf(res);
      const body = requireObject(jsonBody(req));
      refuseProblems(problems(body, caller), kind.noun);
      await resource.refuseOverCap?.(ctx, caller);
      const id = newId(resource.idPrefix);
      const state = await handle(caller, {
        type: 'CreateSavedRecord',
        data: { id, orgId: caller.orgId, fields: body as unknown as F },
        metadata: metadata(caller),
      });
      res.status(201).json(recordView(state));
    });

    router.patch(`${resource.path}/:id`, authenticate(ctx, 'resources:write'), async (req, res) => {
      const caller = callerOf(res);
      const id = idParam(req);
      refusePreset(id);
      await ownRecord(caller, id);
      const body = requireObject(jsonBody(req));
      refuseProblems(schemaProblemsOf(validatePatch, body), kind.noun);
      const state = await handle(caller, {
        type: 'UpdateSavedRecord',
        data: { id, orgId: caller.orgId, patch: body as Partial<F> },
        metadata: metadata(caller),
      });
      res.json(recordView(state));
    });

    router.delete(`${resource.path}/:id`, authenticate(ctx, 'resources:write'), async (req, res) => {
      const caller = callerOf(res);
      const id = idParam(req);
      refusePreset(id);
      await ownRecord(caller, id);
      await handle(caller, {
        type: 'DeleteSavedRecord',
        data: { id, orgId: caller.orgId },
        metadata: metadata(caller),
      });
      res.json({ id, object: resource.object, deleted: true });
    });

    return router;
  }

  return {
    router,
    docs: savedRecordDocs(resource, schemas),
    // Deleted is shared: api/http/openapi/components.ts.
    schemas: {
      [docs.recordTitle]: recordSchema,
      [inputTitle]: inputSchema,
      [patchTitle]: patchSchema,
      [`${docs.one}List`]: listSchema(`${docs.one}List`, docs.recordTitle),
    },
  };
}
