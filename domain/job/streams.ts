/** Stream names of a job (DESIGN §3): its state machine, and its bodies (deleted after retention). */
export const jobStream = (jobId: string): string => `job-${jobId}`;
export const jobBodyStream = (jobId: string): string => `${JOB_BODY_STREAM_PREFIX}${jobId}`;
/** Prefix of job body streams: the only streams ever deleted (retention). */
export const JOB_BODY_STREAM_PREFIX = 'jobbody-';
