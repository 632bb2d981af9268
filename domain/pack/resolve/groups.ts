/**
 * Loading order of item groups (spec Group: `order`, lower = loaded first, defaults to the list
 * position; PackRequest.groups: groups named by items but not listed are created in order of
 * appearance).
 */

/** Loading order of items without a group: last (JSON has no Infinity). */
export const NO_GROUP_ORDER = Number.MAX_SAFE_INTEGER;

/** A listed group as far as ordering needs it. */
export interface ListedGroup {
  name: string;
  order?: number;
  color?: string;
}

/**
 * Order of every group: a listed group takes its `order` or its 1-based list position; groups
 * only named by items follow in order of first appearance, numbered on from the largest listed
 * order (or the number of listed groups, when larger). The first listing of a name wins.
 */
export function groupOrders(
  listed: readonly ListedGroup[],
  itemGroups: readonly (string | null)[],
): Map<string, number> {
  const orders = new Map<string, number>();
  let top = listed.length;
  listed.forEach((g, j) => {
    if (orders.has(g.name)) return;
    const order = g.order ?? j + 1;
    orders.set(g.name, order);
    top = Math.max(top, order);
  });
  for (const name of itemGroups) {
    if (name === null || orders.has(name)) continue;
    top += 1;
    orders.set(name, top);
  }
  return orders;
}
