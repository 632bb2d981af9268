/**
 * Rules between the fields of one vehicle or item definition, after the saved vehicle or template
 * is merged with what the request sends (spec "Resources and their fields" → Vehicle, Item;
 * Errors → detail codes `required`, `out_of_range`, `invalid_value`). Each rule pushes its
 * problems onto `details` and skips what it cannot judge because a value is absent or ill-typed
 * (coercion.ts). Lengths in cm.
 */
import type { ErrorDetail } from '../diagnostics.js';
import type { Rect } from '../request.js';
import { finite, isFields, listOf, nonNegative, positive, type Fields } from './coercion.js';
import { cm } from './message-figures.js';

/** Tolerance of the geometric comparisons, cm. */
const EPS = 1e-9;

/** Spec Vehicle.aux_deck: true needs aux_deck_height (below the vehicle height) and aux_deck_max_weight. */
export function auxDeckRules(f: Fields, path: string, height: number | undefined, details: ErrorDetail[]): void {
  if (f.aux_deck !== true) return;
  for (const k of ['aux_deck_height', 'aux_deck_max_weight'] as const) {
    if (f[k] === undefined)
      details.push({ path: `${path}.${k}`, code: 'required', message: `${k} is required when aux_deck is true` });
  }
  const deck = positive(f.aux_deck_height);
  if (deck !== undefined && height !== undefined && deck >= height) {
    details.push({
      path: `${path}.aux_deck_height`,
      code: 'out_of_range',
      message: `must be below the vehicle height ${cm(height)} cm, got ${cm(deck)}`,
    });
  }
}

/**
 * Spec Vehicle.blocked_areas: "each must lie on the floor" (inside length × width). Returns the
 * well-typed areas, whether or not they lie on the floor (a problem is reported then).
 */
export function blockedAreasOnFloor(
  v: unknown,
  path: string,
  length: number | undefined,
  width: number | undefined,
  details: ErrorDetail[],
): Rect[] {
  const out: Rect[] = [];
  listOf(v).forEach((r, j) => {
    if (!isFields(r)) return;
    const x = nonNegative(r.x);
    const z = nonNegative(r.z);
    const l = positive(r.length);
    const w = positive(r.width);
    const at = `${path}[${j}]`;
    const along = (
      pos: number | undefined,
      ext: number | undefined,
      limit: number | undefined,
      p: string,
      e: string,
      side: string,
    ) => {
      if (pos === undefined || limit === undefined) return;
      if (pos >= limit - EPS) {
        details.push({
          path: `${at}.${p}`,
          code: 'out_of_range',
          message: `must be less than the vehicle ${side} ${cm(limit)} cm (blocked areas lie on the floor), got ${cm(pos)}`,
        });
      } else if (ext !== undefined && pos + ext > limit + EPS) {
        details.push({
          path: `${at}.${e}`,
          code: 'out_of_range',
          message: `${p} + ${e} = ${cm(pos + ext)} exceeds the vehicle ${side} ${cm(limit)} cm; blocked areas must lie on the floor`,
        });
      }
    };
    along(x, l, length, 'x', 'length', 'length');
    along(z, w, width, 'z', 'width', 'width');
    if (x !== undefined && z !== undefined && l !== undefined && w !== undefined)
      out.push({ x, z, length: l, width: w });
  });
  return out;
}

/** Spec Vehicle axle fields: positions up to the vehicle length, as many loads as positions, cog ranges up to half the size. */
export function axleRules(
  f: Fields,
  path: string,
  length: number | undefined,
  width: number | undefined,
  details: ErrorDetail[],
): void {
  const positions = f.axle_positions;
  const loads = f.axle_max_loads;
  if (Array.isArray(positions) && Array.isArray(loads) && positions.length !== loads.length) {
    details.push({
      path: `${path}.axle_max_loads`,
      code: 'invalid_value',
      message: `must have as many entries as axle_positions (${positions.length}), got ${loads.length}`,
    });
  }
  if (length !== undefined) {
    listOf(positions).forEach((p, k) => {
      if (finite(p) && p > length + EPS) {
        details.push({
          path: `${path}.axle_positions[${k}]`,
          code: 'out_of_range',
          message: `must be at most the vehicle length ${cm(length)} cm, got ${cm(p)}`,
        });
      }
    });
    const cx = nonNegative(f.cog_range_x);
    if (cx !== undefined && cx > length / 2 + EPS) {
      details.push({
        path: `${path}.cog_range_x`,
        code: 'out_of_range',
        message: `must be at most half the vehicle length (${cm(length / 2)} cm), got ${cm(cx)}`,
      });
    }
  }
  const cy = nonNegative(f.cog_range_y);
  if (width !== undefined && cy !== undefined && cy > width / 2 + EPS) {
    details.push({
      path: `${path}.cog_range_y`,
      code: 'out_of_range',
      message: `must be at most half the vehicle width (${cm(width / 2)} cm), got ${cm(cy)}`,
    });
  }
}

/** Spec Item.nesting_height: less than the item height. */
export function nestingBelowHeight(f: Fields, path: string, height: number | undefined, details: ErrorDetail[]): void {
  const nesting = positive(f.nesting_height);
  if (nesting !== undefined && height !== undefined && nesting >= height) {
    details.push({
      path: `${path}.nesting_height`,
      code: 'out_of_range',
      message: `must be less than the item height ${cm(height)} cm, got ${cm(nesting)}`,
    });
  }
}
