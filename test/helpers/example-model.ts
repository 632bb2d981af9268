/**
 * The model the service resolves from a request body with the default limits, rebuilt in a test
 * to give the independent verifier its input (requests that use presets only, no templates).
 */
import { checkPackRequest, SCRIPT_CHECK_CONTEXT } from '../../api/http/pack-request/check.js';

/** Throws when `body` does not validate (the error lists the details). */
export function modelOf(body: unknown) {
  const checked = checkPackRequest(body, SCRIPT_CHECK_CONTEXT);
  if (!checked.ok) throw new Error(`request does not validate: ${JSON.stringify(checked.details)}`);
  return checked;
}
