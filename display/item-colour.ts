/**
 * Colours of items on the load plan: the caller's `#rrggbb` per item_id (spec Item.color), else a
 * stable palette colour picked by a hash of the item_id, so the same item keeps its colour across
 * vehicles, pages and re-renders. Shades for the lit top and the darker sides of a box.
 */

/** Distinct hues, medium-bright so they stay apart after shading and carry a step number. */
export const ITEM_PALETTE: readonly string[] = [
  '#4e79a7',
  '#f28e2b',
  '#59a14f',
  '#e15759',
  '#76b7b2',
  '#edc948',
  '#b07aa1',
  '#9c755f',
  '#a0cbe8',
  '#bcbd22',
  '#ff9da7',
  '#17becf',
  '#bab0ac',
  '#8cd17d',
  '#6a3d9a',
  '#d4a373',
];

const HEX = /^#[0-9a-fA-F]{6}$/;

/** 32-bit FNV-1a of a string: stable across runs and platforms. */
function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** The `#rrggbb` colour of an item: `colors[itemId]` when it is a valid `#rrggbb`, else the palette colour of the id's hash. */
export function itemColour(itemId: string, colors?: Readonly<Record<string, string>>): string {
  const given = colors?.[itemId];
  if (given !== undefined && HEX.test(given)) return given.toLowerCase();
  return ITEM_PALETTE[fnv1a(itemId) % ITEM_PALETTE.length]!;
}

/**
 * Colours for all `itemIds` of one document: given colours as in itemColour; the others start
 * at their hash slot and move to the next palette colour not yet used (ids taken in sorted
 * order), so two items share a colour only when the palette runs out. The same id set always
 * gets the same colours.
 */
export function assignItemColours(
  itemIds: Iterable<string>,
  colors?: Readonly<Record<string, string>>,
): Map<string, string> {
  const out = new Map<string, string>();
  const used = new Set<string>();
  const rest: string[] = [];
  for (const id of [...new Set(itemIds)].sort()) {
    const given = colors?.[id];
    if (given !== undefined && HEX.test(given)) {
      out.set(id, given.toLowerCase());
      used.add(given.toLowerCase());
    } else rest.push(id);
  }
  for (const id of rest) {
    const start = fnv1a(id) % ITEM_PALETTE.length;
    let pick = ITEM_PALETTE[start]!;
    for (let k = 0; k < ITEM_PALETTE.length; k++) {
      const c = ITEM_PALETTE[(start + k) % ITEM_PALETTE.length]!;
      if (!used.has(c)) {
        pick = c;
        break;
      }
    }
    used.add(pick);
    out.set(id, pick);
  }
  return out;
}

function channels(hex: string): [number, number, number] {
  const n = parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

function toHex(c: [number, number, number]): string {
  return `#${c
    .map((v) =>
      Math.round(Math.min(255, Math.max(0, v)))
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}

/** Mixes `hex` toward white by `amount` (0–1): the lit top face. */
export function lighter(hex: string, amount: number): string {
  return toHex(channels(hex).map((v) => v + (255 - v) * amount) as [number, number, number]);
}

/** Scales `hex` toward black by `amount` (0–1): the sides in shadow. */
export function darker(hex: string, amount: number): string {
  return toHex(channels(hex).map((v) => v * (1 - amount)) as [number, number, number]);
}

/** Black or white, whichever reads better on `hex` (relative luminance, sRGB approximated). */
export function textColourOn(hex: string): '#000000' | '#ffffff' {
  const [r, g, b] = channels(hex);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b > 140 ? '#000000' : '#ffffff';
}
