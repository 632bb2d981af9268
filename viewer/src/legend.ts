/**
 * The legend of the current colouring: every entry of it (every item, or every group with its
 * items), never cut short, in a scrolling list. Each row shows the colour, the name and how many
 * units are in this vehicle, in the whole plan and unplaced. Names are isolated user labels
 * (user-label.ts): bidi formatting characters removed, right-to-left names kept in their order.
 */
import type { ViewerPlan } from '../../api/http/plan-viewer/viewer-plan.js';
import type { LegendEntry } from './colour-modes.js';
import { userLabel, userLabelList } from './user-label.js';

/** Units per item_id: in the shown vehicle, in all vehicles, unplaced. */
export interface UnitCounts {
  here: ReadonlyMap<string, number>;
  placed: ReadonlyMap<string, number>;
  unplaced: ReadonlyMap<string, number>;
}

/** Counts of `plan` with `vehicleIndex` as the shown vehicle. */
export function unitCounts(plan: ViewerPlan, vehicleIndex: number): UnitCounts {
  const here = new Map<string, number>(),
    placed = new Map<string, number>(),
    unplaced = new Map<string, number>();
  const bump = (m: Map<string, number>, id: string): void => void m.set(id, (m.get(id) ?? 0) + 1);
  plan.vehicles.forEach((v, i) => {
    for (const p of v.placements) {
      bump(placed, p.item_id);
      if (i === vehicleIndex) bump(here, p.item_id);
    }
  });
  for (const u of plan.unplaced) bump(unplaced, u.item_id);
  return { here, placed, unplaced };
}

const sum = (m: ReadonlyMap<string, number>, ids: readonly string[]): number =>
  ids.reduce((n, id) => n + (m.get(id) ?? 0), 0);

/**
 * Fills `list` (a `<ul>`) with one row per legend entry. An entry whose items are all round
 * (`isRound`: cylinders and drums) gets a round swatch (class `round`).
 */
export function showLegend(
  list: HTMLElement,
  entries: readonly LegendEntry[],
  counts: UnitCounts,
  labelOf: (itemId: string) => string,
  isRound: (itemId: string) => boolean = () => false,
): void {
  list.replaceChildren(
    ...entries.map((e) => {
      const li = document.createElement('li');
      li.dataset['key'] = e.key;
      li.dataset['colour'] = e.colour;
      const swatch = document.createElement('span');
      swatch.className = e.itemIds.length > 0 && e.itemIds.every(isRound) ? 'swatch round' : 'swatch';
      swatch.style.background = e.colour;
      swatch.setAttribute('aria-hidden', 'true');
      const name = userLabel(e.label, 'name');
      const detail = document.createElement('span');
      detail.className = 'count';
      const here = sum(counts.here, e.itemIds),
        placed = sum(counts.placed, e.itemIds),
        unplaced = sum(counts.unplaced, e.itemIds);
      detail.textContent = `${here} here · ${placed} placed${unplaced ? ` · ${unplaced} unplaced` : ''}`;
      li.append(swatch, name, detail);
      if (e.key.startsWith('group:')) {
        const items = document.createElement('span');
        items.className = 'members';
        items.append(...userLabelList(e.itemIds.map(labelOf)));
        li.append(items);
      }
      return li;
    }),
  );
}
