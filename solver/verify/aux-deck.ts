/**
 * Rule `aux_deck` (spec Vehicle.aux_deck, aux_deck_height, aux_deck_max_weight): the second deck
 * is a floor over the whole cargo area at aux_deck_height; no unit passes through it (each lies
 * wholly below or wholly above it), and the units above it, which it carries, weigh at most
 * aux_deck_max_weight. Units standing on it are supported by it (support.ts, contact.ts).
 */
import type { LoadedVehicle } from './placed-unit.js';
import type { Violation } from './violation.js';
import { LENGTH_TOLERANCE, RELATIVE_TOLERANCE, num, unitName } from './violation.js';

/** Checks the deck of one vehicle (nothing for vehicles without one). */
export function checkAuxDeck(vehicle: LoadedVehicle): Violation[] {
  const deck = vehicle.definition?.auxDeck;
  if (!deck) return [];
  const out: Violation[] = [];
  const at = vehicle.position;
  let carried = 0;
  for (const u of vehicle.units) {
    const p = u.placement;
    if (u.y0 < deck.height - LENGTH_TOLERANCE && u.y1 > deck.height + LENGTH_TOLERANCE) {
      out.push({
        rule: 'aux_deck',
        vehicle: at,
        item_id: p.item_id,
        instance: p.instance,
        message: `${unitName(p.item_id, p.instance)} in vehicle ${at} spans y = ${num(u.y0)}–${num(u.y1)} cm, through the second deck at ${num(deck.height)} cm.`,
      });
    }
    if (u.y0 >= deck.height - LENGTH_TOLERANCE) carried += p.weight;
  }
  if (carried > deck.maxWeight * (1 + RELATIVE_TOLERANCE) + RELATIVE_TOLERANCE) {
    out.push({
      rule: 'aux_deck',
      vehicle: at,
      message: `The second deck of vehicle ${at} carries ${num(carried)} kg; aux_deck_max_weight is ${num(deck.maxWeight)} kg.`,
    });
  }
  return out;
}
