/**
 * Plan revisions of a succeeded job (plan editing, POST /v1/jobs/{id}/revisions): the stream
 * `jobrevision-<id>` (streams.ts) holds one `PlanRevised` per revision, event k (0-based) being
 * revision k + 1; revision 0 is the job's own plan (its body stream, body.ts).
 *
 * The decision: a revision is made on the latest revision only (`baseRevision` = the latest, else
 * 409 `conflict`: someone saved in between; reload and edit the latest), and only when its edited
 * plan has no problem (else 422 `validation_failed`, one detail per problem, nothing stored). The
 * caller checks the edit with the verifier (application/plan-revisions.ts over solver/edit) and
 * hands in the problems it found and the encoded content to store; this decider decides. Run
 * with handleCommand (domain/decider/handle.ts), the append expects the stream revision the
 * decision was made on (`baseRevision − 1`, `no_stream` for 0), so of two saves on one base only
 * one is stored; the other reloads, and is refused with `conflict`.
 * Revisions are free: no ledger event. Retention deletes the stream with the bodies (retention.ts).
 */
import type { Actor } from '../decider/actor.js';
import type { CommandMetadata, Decider, DomainEvent } from '../decider/decider.js';
import { DomainError, type ErrorProblem } from '../errors.js';
import type { BodyEncoding } from './body-encoding.js';

/**
 * What a revision stores besides its summary: `{layout, operations}` (the plan as a person decides
 * it, solver/edit Layout, and the edit operations as sent) as Brotli-compressed JSON in base64
 * (body-encoding.ts), one piece: a revision that does not fit one event is refused (413).
 */
export interface EncodedRevisionContent {
  encoding: BodyEncoding;
  /** SHA-256 (hex) of the compressed bytes. */
  digest: string;
  /** Bytes of the JSON before compression. */
  bytes: number;
  /** Base64 of the compressed JSON. */
  data: string;
}

/** One revision as listed: its number, its base, when and by whom, how many operations. */
export interface RevisionSummary {
  /** 1-based. */
  revision: number;
  baseRevision: number;
  /** RFC 3339. */
  createdAt: string;
  createdBy: Actor;
  operationsCount: number;
}

/** `PlanRevised` data: the summary, the job and the encoded content. */
export interface PlanRevisedData extends RevisionSummary {
  jobId: string;
  content: EncodedRevisionContent;
}

export type JobRevisionEvent = DomainEvent<'PlanRevised', PlanRevisedData>;

/** The revisions of a job so far, oldest first (`revisions[k].revision` = k + 1); summaries only. */
export interface RevisionHistory {
  revisions: RevisionSummary[];
}

/** Save revision `baseRevision + 1` of a job's plan, edited from `baseRevision`. */
export type RevisePlan = {
  type: 'RevisePlan';
  data: {
    jobId: string;
    /** Id of the event (a fresh one per request: two saves on one base are two attempts, not a retry). */
    eventId: string;
    baseRevision: number;
    operationsCount: number;
    /** What the edit check found (operations that could not apply, verifier problems); [] when valid. */
    problems: ErrorProblem[];
    /** What to store; null when `problems` is not empty (nothing is stored then). */
    content: EncodedRevisionContent | null;
  };
  metadata: CommandMetadata;
};

/** The latest revision of `history` (0: only the job's own plan). */
export const latestRevision = (history: RevisionHistory): number => history.revisions.length;

/**
 * Throws 409 `conflict` unless `baseRevision` is the latest revision of `history` (an edit of an
 * older revision, or of one that does not exist yet).
 */
export function checkBaseRevision(history: RevisionHistory, jobId: string, baseRevision: number): void {
  const latest = latestRevision(history);
  if (baseRevision === latest) return;
  throw new DomainError(
    'conflict',
    baseRevision < latest
      ? `revision ${baseRevision} of job ${jobId} is not the latest (the latest is ${latest}): reload the latest revision and edit that one`
      : `job ${jobId} has no revision ${baseRevision} yet (the latest is ${latest})`,
  );
}

/**
 * Decides a RevisePlan on `history`: [PlanRevised] with revision `baseRevision + 1`. Throws 409
 * `conflict` when the base is not the latest revision, 422 `validation_failed` with the problems
 * as details when there are any.
 */
export function decideRevision(command: RevisePlan, history: RevisionHistory): JobRevisionEvent[] {
  const { jobId, eventId, baseRevision, operationsCount, problems, content } = command.data;
  checkBaseRevision(history, jobId, baseRevision);
  if (problems.length > 0) {
    const n = problems.length;
    throw new DomainError(
      'validation_failed',
      `The edited plan is not valid: ${n} problem${n === 1 ? '' : 's'} (see details); nothing was stored.`,
      problems,
    );
  }
  if (!content) throw new Error(`RevisePlan of job ${jobId}: a valid edit without content to store`);
  return [
    {
      type: 'PlanRevised',
      id: eventId,
      data: {
        jobId,
        revision: baseRevision + 1,
        baseRevision,
        createdAt: command.metadata.now,
        createdBy: command.metadata.actor,
        operationsCount,
        content,
      },
    },
  ];
}

/** The summary of a PlanRevised event's data (what lists and answers show). */
export const summaryOf = ({ revision, baseRevision, createdAt, createdBy, operationsCount }: RevisionSummary) => ({
  revision,
  baseRevision,
  createdAt,
  createdBy,
  operationsCount,
});

/** The decider of a job's revision stream. State: the summaries (never the content). */
export const revisionDecider: Decider<RevisionHistory, RevisePlan, JobRevisionEvent> = {
  initialState: () => ({ revisions: [] }),
  evolve: (history, event) =>
    event.type === 'PlanRevised' ? { revisions: [...history.revisions, summaryOf(event.data)] } : history,
  decide: decideRevision,
};
