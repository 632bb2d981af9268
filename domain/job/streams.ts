/** Stream names of a job (DESIGN §3): its state machine, and its bodies (deleted after retention). */
export const jobStream = (jobId: string): string => `job-${jobId}`;
export const jobBodyStream = (jobId: string): string => `jobbody-${jobId}`;
