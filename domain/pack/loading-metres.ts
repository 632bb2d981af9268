/**
 * Loading metres (LDM) of a vehicle: the length of the cargo floor the load
 * takes, from the front wall to the rear end of the unit nearest the door, in metres. Pure.
 */

/** What LDM needs of a placed unit: its position and size along the length, cm. */
export interface LengthExtent {
  x: number;
  length: number;
}

/** Loading metres of `units`: max(x + length) / 100 m; 0 for an empty vehicle. */
export function loadingMetres(units: readonly LengthExtent[]): number {
  let end = 0;
  for (const u of units) end = Math.max(end, u.x + u.length);
  return end / 100;
}
