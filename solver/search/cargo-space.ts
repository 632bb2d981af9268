/**
 * The empty cargo space of a vehicle as the search starts it (maximal-space.ts): one floor space
 * (two with a second deck: under the deck, and on it) with the floor's load capacity, the
 * blocked areas taken out. Lengths in cm.
 */
import type { PackModel, VehicleModel } from '../../domain/pack/plan.js';
import { floorCapacity } from './load-bearing.js';
import { initialSpace, occupy, type MinSize, type Space } from './maximal-space.js';

/** The empty spaces of `vehicle` before anything is loaded; spaces smaller than `min` are dropped. */
export function cargoSpaces(model: PackModel, vehicle: VehicleModel, min: MinSize): Space[] {
  const deck = vehicle.auxDeck;
  // With a second deck the cargo space is two floors: under the deck, and on it.
  let spaces: Space[] = deck
    ? [
        initialSpace(vehicle.length, vehicle.width, deck.height, floorCapacity(model, vehicle)),
        { ...initialSpace(vehicle.length, vehicle.width, vehicle.height), y0: deck.height },
      ]
    : [initialSpace(vehicle.length, vehicle.width, vehicle.height, floorCapacity(model, vehicle))];
  for (const r of vehicle.blockedAreas) {
    spaces = occupy(
      spaces,
      {
        x0: r.x,
        x1: r.x + r.length,
        z0: r.z,
        z1: r.z + r.width,
        y0: 0,
        y1: deck?.height ?? vehicle.height,
        topLevel: 0,
        supportsAbove: false,
        capacityAbove: 0,
        palletTop: false,
        densityAbove: 0,
        weightAbove: 0,
      },
      min,
    );
  }
  return spaces;
}
