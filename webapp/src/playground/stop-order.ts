/**
 * Pure parts of the stops control (stops-control.tsx): a stop moved in the list, and the colour
 * of each stop, the one the 3D viewer and the PDF give its group (viewer/src/colour-modes.ts:
 * the group's `color`, else the shared palette of display/item-colour.ts).
 */
import { assignItemColours } from '../../../display/item-colour.js';
import type { Stop } from './request-edits.js';

/** The colour of each stop: its given colour, else the palette colour the viewer and PDF pick. */
export function stopColours(stops: readonly Stop[]): Map<string, string> {
  const given: Record<string, string> = {};
  for (const s of stops) if (s.color) given[s.name] = s.color;
  return assignItemColours(
    stops.map((s) => s.name),
    given,
  );
}

/** `names` with the entry at `from` moved to `to` (both 0-based). */
export function moved<T>(names: readonly T[], from: number, to: number): T[] {
  const out = [...names];
  const [entry] = out.splice(from, 1);
  out.splice(Math.max(0, Math.min(to, out.length)), 0, entry as T);
  return out;
}
