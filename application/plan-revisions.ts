/**
 * Plan revisions of a succeeded job (plan editing; POST and GET /v1/jobs/{id}/revisions, GET
 * /v1/jobs/{id}/result?revision=N and the revision's signed links): edit the latest revision with
 * operations (solver/edit), check the edited plan with the independent verifier, store it as the
 * next revision (domain/job/revision.ts decides), and rebuild any revision's plan from its stored
 * layout. Revision 0 is the job's own plan. The caller has checked that the job is the caller's,
 * succeeded and inside retention.
 */
import { randomUUID } from 'node:crypto';
import type { Actor } from '../domain/decider/actor.js';
import { handleCommand, loadState } from '../domain/decider/handle.js';
import { DomainError, type ErrorProblem } from '../domain/errors.js';
import { readJobBody } from '../domain/job/body.js';
import { decodeRevisionContent, encodeRevisionContent, readPlanRevised } from '../domain/job/revision-content.js';
import {
  checkBaseRevision,
  revisionDecider,
  type RevisionHistory,
  type RevisionSummary,
} from '../domain/job/revision.js';
import { jobRevisionStream } from '../domain/job/streams.js';
import type { PackModel, Plan } from '../domain/pack/plan.js';
import type { EventStore } from '../domain/ports/event-store.js';
import { layoutOf, planFromLayout, type Layout } from '../solver/edit/layout.js';
import { applyOperations, operationOf, type EditOperation } from '../solver/edit/operations.js';
import { checkLayout } from '../solver/edit/plan-check.js';
import type { UseCasePorts } from './ports.js';

/** What a revision stores (encoded, domain/job/revision-content.ts): its layout and the operations that made it. */
export interface RevisionContent {
  layout: Layout;
  operations: EditOperation[];
}

/** A saved revision: its summary and its rebuilt plan. */
export interface SavedRevision {
  summary: RevisionSummary;
  plan: Plan;
}

/** The detail code of an operation that could not be applied (a unit, vehicle or orientation it names is wrong). */
export const INVALID_OPERATION = 'invalid_operation';

/** The stored model and plan of a job, or 410 result_expired when its bodies are gone. */
async function jobModelAndPlan(store: EventStore, jobId: string): Promise<{ model: PackModel; plan: Plan }> {
  const body = await readJobBody(store, jobId);
  const model = body.request?.model;
  const plan = body.result?.plan;
  if (!model || !plan) throw new DomainError('result_expired', `the plan of job ${jobId} is no longer stored`);
  return { model, plan };
}

/** The stored layout of revision `revision` (≥ 1), or 404 not_found. */
async function revisionLayout(store: EventStore, jobId: string, revision: number): Promise<Layout> {
  const revised = await readPlanRevised(store, jobId, revision);
  if (!revised) throw new DomainError('not_found', `job ${jobId} has no revision ${revision}`);
  return ((await decodeRevisionContent(revised.content)) as RevisionContent).layout;
}

/**
 * The problems of an edit as `details` entries: an operation that could not apply
 * (`invalid_operation`), then each verifier problem under its rule name; `path` `operations[i]`
 * for the operation that caused it (solver/edit operationOf: the last one that touched one of its
 * units), else `result` (a problem of the plan as a whole, or of units no operation touched).
 */
export function editProblems(model: PackModel, base: Layout, operations: readonly EditOperation[]) {
  const edited = applyOperations(model, base, operations);
  const check = checkLayout(model, edited.layout);
  const problems: ErrorProblem[] = [
    ...edited.errors.map((e) => ({ path: `operations[${e.index}]`, code: INVALID_OPERATION, message: e.message })),
    ...check.problems.map((p) => {
      const index = operationOf(p, edited.touchedBy);
      return { path: index === null ? 'result' : `operations[${index}]`, code: p.rule, message: p.message };
    }),
  ];
  return { problems, plan: check.plan };
}

/**
 * Saves revision `baseRevision + 1` of job `jobId`: `operations` applied in order to revision
 * `baseRevision`, checked by the verifier. Resolves with the summary and the rebuilt plan. Throws
 * 409 conflict when `baseRevision` is not the latest revision (also when another save on the same
 * base was stored first), 422 validation_failed with one detail per problem (nothing stored),
 * 410 result_expired when the job's bodies are gone, and EventTooLargeError (413) when the
 * revision does not fit one event.
 */
export async function revisePlan(
  ports: Pick<UseCasePorts, 'store' | 'clock'>,
  input: { jobId: string; actor: Actor; baseRevision: number; operations: EditOperation[] },
): Promise<SavedRevision> {
  const { store } = ports;
  const { jobId, actor, baseRevision, operations } = input;
  const stream = jobRevisionStream(jobId);
  // Refused early when stale: no edit is checked against an old revision.
  checkBaseRevision((await loadState(store, stream, revisionDecider)).state, jobId, baseRevision);
  const { model, plan: jobPlan } = await jobModelAndPlan(store, jobId);
  const base = baseRevision === 0 ? layoutOf(jobPlan) : await revisionLayout(store, jobId, baseRevision);
  const { problems, plan } = editProblems(model, base, operations);
  // The layout of the rebuilt plan: vehicle indices of the next edit are this revision's result's.
  const content =
    problems.length === 0
      ? await encodeRevisionContent({ layout: layoutOf(plan), operations } satisfies RevisionContent)
      : null;
  const { events } = await handleCommand(store, stream, revisionDecider, {
    type: 'RevisePlan',
    data: { jobId, eventId: randomUUID(), baseRevision, operationsCount: operations.length, problems, content },
    metadata: { now: ports.clock(), actor },
  });
  const [saved] = events;
  if (!saved) throw new Error(`revision ${baseRevision + 1} of job ${jobId} was not stored`);
  const { revision, createdAt, createdBy, operationsCount } = saved.data;
  return { summary: { revision, baseRevision, createdAt, createdBy, operationsCount }, plan };
}

/** The revisions of job `jobId`, oldest first (summaries). Throws what the store throws. */
export async function revisionsOf(store: EventStore, jobId: string): Promise<RevisionHistory> {
  return (await loadState(store, jobRevisionStream(jobId), revisionDecider)).state;
}

/**
 * The plan of revision `revision` of job `jobId` (0: the job's own plan; N: rebuilt from its
 * stored layout) and the job's model. Throws 404 not_found for a revision the job does not have,
 * 410 result_expired when the job's bodies are gone.
 */
export async function revisionPlan(
  store: EventStore,
  jobId: string,
  revision: number,
): Promise<{ plan: Plan; model: PackModel }> {
  const { model, plan } = await jobModelAndPlan(store, jobId);
  if (revision === 0) return { plan, model };
  return { plan: await rebuildRevisionPlan(store, jobId, revision, model), model };
}

/**
 * The plan of revision `revision` (≥ 1) of job `jobId`, rebuilt from its stored layout with the
 * job's `model` (for a caller that has read the job's bodies already). Throws 404 not_found for
 * a revision the job does not have.
 */
export async function rebuildRevisionPlan(
  store: EventStore,
  jobId: string,
  revision: number,
  model: PackModel,
): Promise<Plan> {
  return planFromLayout(model, await revisionLayout(store, jobId, revision));
}
