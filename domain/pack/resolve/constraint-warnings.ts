/**
 * Warnings for request features that are accepted but not yet enforced by the search, so that
 * nobody reads a plan as honouring them (spec Job/Result `warnings[]`). Codes:
 * - `constraint_not_enforced`: group_identical_bins; an incomplete semi-trailer axle model (some
 *   of its ten fields) and axle_positions beside a complete one, which are not used; enforce_axle
 *   with nothing to enforce (resolve.ts).
 * - `axle_access_missing`: axle fields or enforce_axle sent by an organization without axle
 *   access; accepted and ignored (spec Vehicle: "Without that access they are accepted and
 *   ignored").
 * - `time_limit_capped`: options.time_limit above the organization's max_time_limit_seconds.
 * Every other constraint of the spec is enforced by the search and checked by the verifier.
 */
import type { Warning } from '../diagnostics.js';
import { AXLE_FIELDS, missingSemiTrailerFields } from './axle-model.js';

type Fields = Readonly<Record<string, unknown>>;

const notEnforced = (path: string, message: string): Warning => ({ code: 'constraint_not_enforced', message, path });

/** Warnings about one resolved vehicle (`f`: saved fields with the request's overrides). */
export function vehicleWarnings(f: Fields, path: string, axleAccess: boolean): Warning[] {
  const out: Warning[] = [];
  const axle = AXLE_FIELDS.filter((k) => f[k] !== undefined);
  if (axle.length > 0 && !axleAccess) {
    out.push({
      code: 'axle_access_missing',
      message: `axle fields (${axle.join(', ')}) are accepted and ignored: the organization has no axle access`,
      path,
    });
  } else if (axle.length > 0) {
    const missing = missingSemiTrailerFields(f);
    if (missing.length > 0) {
      out.push(
        notEnforced(
          path,
          `the semi-trailer axle model needs all ten of its fields; missing ${missing.join(', ')}: its fields are not used`,
        ),
      );
    } else if (f.tractor_weight !== undefined && f.axle_positions !== undefined) {
      out.push(
        notEnforced(
          `${path}.axle_positions`,
          'axle_positions and axle_max_loads are not used: the semi-trailer axle model (all ten fields) gives the axle loads',
        ),
      );
    }
  }
  return out;
}

/** Warnings about the job options. */
export function optionWarnings(o: Fields, axleAccess: boolean, maxTimeLimitSeconds: number): Warning[] {
  const out: Warning[] = [];
  if (o.group_identical_bins === true) {
    out.push(notEnforced('options.group_identical_bins', 'group_identical_bins is accepted but not used yet'));
  }
  if (o.enforce_axle === true && !axleAccess) {
    out.push({
      code: 'axle_access_missing',
      message: 'enforce_axle is accepted and ignored: the organization has no axle access',
      path: 'options.enforce_axle',
    });
  }
  if (typeof o.time_limit === 'number' && o.time_limit > maxTimeLimitSeconds) {
    out.push({
      code: 'time_limit_capped',
      message: `time_limit ${o.time_limit} s is above the organization's limit; the job gets ${maxTimeLimitSeconds} s`,
      path: 'options.time_limit',
    });
  }
  return out;
}
