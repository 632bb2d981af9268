/** Query-string checks shared by routes; a bad value is a 422 with the parameter's path. */
import { ApiError } from './errors.js';
import { MAX_WAIT_SECONDS, parseWait } from './jobs/job-wait.js';

/** `?wait=` in ms (0 when absent). Throws 422 validation_failed when not 0–60 seconds. */
export function waitParam(raw: unknown): number {
  const ms = parseWait(raw);
  if (ms === null) {
    throw new ApiError('validation_failed', 'the query is invalid', [
      {
        path: 'wait',
        code: 'out_of_range',
        message: `wait must be a number of seconds from 0 to ${MAX_WAIT_SECONDS}, got ${JSON.stringify(raw)}`,
      },
    ]);
  }
  return ms;
}
