/**
 * How units are coloured, and the legend that explains it ("colours by `color`, item or
 * group with a complete legend"):
 * - `color`: the item's `color` (or its group's), else the palette colour the PDF picks
 *   (display/item-colour.ts, the same function and the same ids), so screen and paper agree;
 * - `item`: one distinct colour per item, given colours ignored (items sharing a colour apart);
 * - `group`: the group's colour (given, else a palette colour per group), grey without a group.
 */
import type { ViewerPlan } from '../../api/http/plan-viewer/viewer-plan.js';
import { ITEM_PALETTE, assignItemColours, itemColour } from '../../display/item-colour.js';

/** The colouring modes of the viewer's "Colour by" control. */
export type ColourMode = 'color' | 'item' | 'group';

export const COLOUR_MODES: readonly { mode: ColourMode; label: string }[] = [
  { mode: 'color', label: 'Item colour' },
  { mode: 'item', label: 'Item (distinct)' },
  { mode: 'group', label: 'Group' },
];

/** One legend row: a colour and the items drawn in it. */
export interface LegendEntry {
  key: string;
  label: string;
  /** `#rrggbb`. */
  colour: string;
  itemIds: string[];
}

/** The colour of every item under one mode, and its legend (every item of the plan appears). */
export interface Colouring {
  colourOf: (itemId: string) => string;
  legend: LegendEntry[];
}

/** Grey of units whose item has no group, in `group` mode. */
export const NO_GROUP_COLOUR = '#9e9e9e';

/** Evenly spread hues for more items than the palette has colours (golden angle), `#rrggbb`. */
function spreadColour(i: number): string {
  const h = (i * 137.508) % 360;
  const s = 0.55,
    l = 0.55;
  const f = (n: number): number => {
    const k = (n + h / 30) % 12;
    const c = l - s * Math.min(l, 1 - l) * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return Math.round(c * 255);
  };
  return `#${[f(0), f(8), f(4)].map((v) => v.toString(16).padStart(2, '0')).join('')}`;
}

/** Colours and legend of `plan` under `mode`. */
export function colouring(plan: ViewerPlan, mode: ColourMode): Colouring {
  const items = plan.items;
  if (mode === 'group') return groupColouring(plan);
  let colours: Map<string, string>;
  if (mode === 'color') {
    const given: Record<string, string> = {};
    for (const it of items) if (it.color) given[it.id] = it.color;
    // The PDF's call: ids of the placed units, then the single-item fallback for the rest.
    const placed = plan.vehicles.flatMap((v) => v.placements.map((p) => p.item_id));
    colours = assignItemColours(placed, given);
    for (const it of items) if (!colours.has(it.id)) colours.set(it.id, itemColour(it.id, given));
  } else {
    const ids = items.map((it) => it.id);
    colours =
      ids.length <= ITEM_PALETTE.length
        ? assignItemColours(ids)
        : new Map([...ids].sort().map((id, i) => [id, spreadColour(i)] as const));
  }
  return {
    colourOf: (id) => colours.get(id) ?? itemColour(id),
    legend: items.map((it) => ({
      key: it.id,
      label: it.label,
      colour: colours.get(it.id) ?? itemColour(it.id),
      itemIds: [it.id],
    })),
  };
}

function groupColouring(plan: ViewerPlan): Colouring {
  const given: Record<string, string> = {};
  for (const g of plan.groups) if (g.color) given[g.name] = g.color;
  const colours = assignItemColours(
    plan.groups.map((g) => g.name),
    given,
  );
  const groupOf = new Map(plan.items.map((it) => [it.id, it.group] as const));
  const legend: LegendEntry[] = plan.groups.map((g) => ({
    key: `group:${g.name}`,
    label: g.name,
    colour: colours.get(g.name) ?? NO_GROUP_COLOUR,
    itemIds: plan.items.filter((it) => it.group === g.name).map((it) => it.id),
  }));
  const ungrouped = plan.items.filter((it) => it.group === null || !colours.has(it.group)).map((it) => it.id);
  if (ungrouped.length > 0)
    legend.push({ key: 'group:', label: 'No group', colour: NO_GROUP_COLOUR, itemIds: ungrouped });
  return {
    colourOf: (id) => {
      const g = groupOf.get(id);
      return (g != null ? colours.get(g) : undefined) ?? NO_GROUP_COLOUR;
    },
    legend,
  };
}
