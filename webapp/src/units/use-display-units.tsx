/**
 * The signed-in organization's display units (units/measure.ts) from the session
 * (`organization.display_units` of GET /app/api/session); `metric` when the session has none.
 */
import { useSession } from '../session.js';
import type { DisplayUnits } from './measure.js';

/** The display units of the signed-in organization (`metric` when signed out or unset). */
export function useDisplayUnits(): DisplayUnits {
  const { session } = useSession();
  return session?.organization.display_units === 'imperial' ? 'imperial' : 'metric';
}
