/**
 * Rule `overlap`: no two units of a vehicle share a positive volume (touching faces are fine),
 * except identical nesting units of one column (nesting.ts). An upright cylinder or drum is its
 * circle extruded over its height (footprint.ts), so staggered round units may share bounding
 * box volume.
 * Sort-and-sweep along one axis, so the cost is n·log n plus the pairs whose ranges on that
 * axis meet; the axis is the one along which units are expected to meet least (a stack of
 * layers is swept along y, a row along the floor along x or z).
 */
import { footprintsMeet, penetration } from './footprint.js';
import { sameNestedColumn } from './nesting.js';
import type { LoadedVehicle, PlacedUnit } from './placed-unit.js';
import type { Violation } from './violation.js';
import { LENGTH_TOLERANCE, num, unitName } from './violation.js';

/** Pairs reported per vehicle before the rest are counted in one violation. */
const PAIRS_REPORTED = 100;

type Axis = 'x' | 'y' | 'z';

/** Checks every pair of units in each vehicle; an overlap thinner than LENGTH_TOLERANCE on any axis is none. */
export function checkOverlap(vehicles: readonly LoadedVehicle[]): Violation[] {
  const violations: Violation[] = [];
  for (const vehicle of vehicles) {
    const units = vehicle.units.filter(isFiniteBox);
    const axis = sweepAxis(units);
    const lo = Float64Array.from(units, (u) => (axis === 'x' ? u.x0 : axis === 'y' ? u.y0 : u.z0));
    const hi = Float64Array.from(units, (u) => (axis === 'x' ? u.x1 : axis === 'y' ? u.y1 : u.z1));
    const order = units.map((_, i) => i).sort((a, b) => lo[a]! - lo[b]!);
    const active: number[] = [];
    let reported = 0;
    let unreported = 0;
    for (const i of order) {
      const a = units[i]!;
      let kept = 0;
      const start = lo[i]!;
      for (const j of active) if (hi[j]! - start > LENGTH_TOLERANCE) active[kept++] = j;
      active.length = kept;
      for (const j of active) {
        const b = units[j]!;
        const dx = Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0);
        if (dx <= LENGTH_TOLERANCE) continue;
        const dz = Math.min(a.z1, b.z1) - Math.max(a.z0, b.z0);
        if (dz <= LENGTH_TOLERANCE) continue;
        const dy = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);
        if (dy <= LENGTH_TOLERANCE) continue;
        if (sameNestedColumn(a, b)) continue;
        // Upright round units: bounding boxes may overlap where the circles do not.
        const round = a.footprint.kind === 'circle' || b.footprint.kind === 'circle';
        if (round && !footprintsMeet(a.footprint, b.footprint)) continue;
        if (reported >= PAIRS_REPORTED) {
          unreported++;
          continue;
        }
        reported++;
        // Name the pair in plan order so a report does not depend on the sweep axis.
        const [p, q] =
          vehicle.units.indexOf(b) < vehicle.units.indexOf(a) ? [b.placement, a.placement] : [a.placement, b.placement];
        const both =
          a.footprint.kind === 'circle' && b.footprint.kind === 'circle' ? 'their circles' : 'a circle and a rectangle';
        violations.push({
          rule: 'overlap',
          vehicle: vehicle.position,
          item_id: p.item_id,
          instance: p.instance,
          others: [{ item_id: q.item_id, instance: q.instance }],
          message: round
            ? `${unitName(p.item_id, p.instance)} and ${unitName(q.item_id, q.instance)} in vehicle ${vehicle.position}: ${both} reach ${num(penetration(a.footprint, b.footprint))} cm into each other over ${num(dy)} cm of height.`
            : `${unitName(p.item_id, p.instance)} and ${unitName(q.item_id, q.instance)} in vehicle ${vehicle.position} overlap by ${num(dx)} × ${num(dz)} × ${num(dy)} cm (x × z × y) = ${num(dx * dy * dz)} cm³.`,
        });
      }
      active.push(i);
    }
    if (unreported > 0) {
      violations.push({
        rule: 'overlap',
        vehicle: vehicle.position,
        message: `Vehicle ${vehicle.position} has ${unreported} more overlapping pairs not listed.`,
      });
    }
  }
  return violations;
}

/** The axis with the smallest Σ unit size / occupied span: about how many units a sweep line crosses. */
function sweepAxis(units: readonly PlacedUnit[]): Axis {
  const spans: [Axis, (u: PlacedUnit) => number, (u: PlacedUnit) => number][] = [
    ['x', (u) => u.x0, (u) => u.x1],
    ['z', (u) => u.z0, (u) => u.z1],
    ['y', (u) => u.y0, (u) => u.y1],
  ];
  let best: Axis = 'x';
  let bestDepth = Number.POSITIVE_INFINITY;
  for (const [axis, lo, hi] of spans) {
    let total = 0;
    let from = Number.POSITIVE_INFINITY;
    let to = Number.NEGATIVE_INFINITY;
    for (const u of units) {
      const a = lo(u);
      const b = hi(u);
      total += b - a;
      if (a < from) from = a;
      if (b > to) to = b;
    }
    const depth = to > from ? total / (to - from) : Number.POSITIVE_INFINITY;
    if (depth < bestDepth) {
      best = axis;
      bestDepth = depth;
    }
  }
  return best;
}

function isFiniteBox(u: PlacedUnit): boolean {
  return (
    Number.isFinite(u.x0) &&
    Number.isFinite(u.x1) &&
    Number.isFinite(u.y0) &&
    Number.isFinite(u.y1) &&
    Number.isFinite(u.z0) &&
    Number.isFinite(u.z1)
  );
}
