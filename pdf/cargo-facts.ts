/**
 * The facts of a job's request the PDF draws and the Result does not carry (pdf.ts CargoFacts),
 * read from the resolved model: second-deck heights per vehicle definition, hazardous items, and
 * round items (shape `cylinder` or `drum`, drawn as discs and cylinders:).
 */
import type { PackModel } from '../domain/pack/plan.js';
import type { CargoFacts } from './pdf.js';
import { ROUND_SHAPES } from './round-unit.js';

/** CargoFacts of `model`; empty facts without a model (the request body is no longer stored). */
export function cargoFactsOf(model: Pick<PackModel, 'vehicles' | 'items'> | null | undefined): Required<CargoFacts> {
  const deckHeights: Record<string, number> = {};
  for (const v of model?.vehicles ?? []) if (v.auxDeck) deckHeights[v.id] = v.auxDeck.height;
  const items = model?.items ?? [];
  return {
    deckHeights,
    hazardous: items.filter((it) => it.hazardous).map((it) => it.id),
    round: items.filter((it) => ROUND_SHAPES.has(it.shape)).map((it) => it.id),
  };
}
