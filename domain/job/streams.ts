/**
 * Stream names of a job (DESIGN §3): its state machine, its bodies and its plan revisions (both
 * deleted after retention), and the idempotency claims of the pack endpoints. The only place these
 * names are built or read.
 */
const JOB_PREFIX = 'job-';
/** Prefix of job body streams: with the revision streams, the only streams ever deleted (retention). */
export const JOB_BODY_STREAM_PREFIX = 'jobbody-';

export const jobStream = (jobId: string): string => `${JOB_PREFIX}${jobId}`;
export const jobBodyStream = (jobId: string): string => `${JOB_BODY_STREAM_PREFIX}${jobId}`;
/** Prefix of a job's plan revision streams (domain/job/revision.ts): deleted with the bodies (retention). */
export const JOB_REVISION_STREAM_PREFIX = 'jobrevision-';
/** Stream of a job's plan revisions: event k (0-based) is revision k + 1. */
export const jobRevisionStream = (jobId: string): string => `${JOB_REVISION_STREAM_PREFIX}${jobId}`;
/** True for a job's state stream (not its body stream). */
export const isJobStream = (stream: string): boolean => stream.startsWith(JOB_PREFIX);

const IDEMPOTENCY_PREFIX = 'idem-';

/**
 * Stream of one Idempotency-Key's claims: `idem-<org>-<keyHash>` (`keyHash`: hex SHA-256 of the
 * key; domain/job/idempotency-claim.ts), written with expected revisions, so one key makes one job.
 */
export const idempotencyStream = (orgId: string, keyHash: string): string => `${IDEMPOTENCY_PREFIX}${orgId}-${keyHash}`;
/** True for an Idempotency-Key's claim stream. */
export const isIdempotencyStream = (stream: string): boolean => stream.startsWith(IDEMPOTENCY_PREFIX);
