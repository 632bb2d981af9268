/**
 * The units that were not placed, with their reasons (spec UnplacedItem; reasons as in
 * domain/pack/plan.ts UnplacedReason): one row per item and reason, the instances as ranges.
 */
import type { UnplacedUnit } from '../../domain/pack/plan.js';
import { REASON_TEXT, instanceRanges } from './plan-words.js';
import { userLabel } from './user-label.js';

/**
 * Fills `list` (a `<ul>`) and `heading` with the unplaced units of the plan. With `onPlace` (the
 * edit mode), each row has a Place button handing over its first unit and the item's label.
 */
export function showUnplaced(
  list: HTMLElement,
  heading: HTMLElement,
  unplaced: readonly UnplacedUnit[],
  onPlace: ((unit: { item_id: string; instance: number }, label: string) => void) | null = null,
): void {
  heading.textContent = `Unplaced units (${unplaced.length})`;
  const rows = new Map<string, { unit: UnplacedUnit; instances: number[] }>();
  for (const u of unplaced) {
    const key = `${u.item_id}\u0000${u.reason}`;
    const row = rows.get(key);
    if (row) row.instances.push(u.instance);
    else rows.set(key, { unit: u, instances: [u.instance] });
  }
  if (rows.size === 0) {
    const li = document.createElement('li');
    li.className = 'hint';
    li.textContent = 'Every unit is placed.';
    list.replaceChildren(li);
    return;
  }
  list.replaceChildren(
    ...[...rows.values()].map(({ unit, instances }) => {
      const li = document.createElement('li');
      li.dataset['item'] = unit.item_id;
      li.dataset['reason'] = unit.reason;
      li.dataset['count'] = String(instances.length);
      const what = document.createElement('strong');
      what.append(`${instances.length} × `, userLabel(unit.label));
      const why = document.createElement('span');
      why.textContent = ` — ${unit.reason}: ${(REASON_TEXT as Record<string, string | undefined>)[unit.reason] ?? unit.reason}`;
      const which = document.createElement('span');
      which.className = 'members';
      which.append(
        userLabel(unit.item_id),
        `, instance${instances.length > 1 ? 's' : ''} ${instanceRanges(instances)}`,
      );
      li.append(what, why, which);
      if (onPlace) {
        const first = Math.min(...instances);
        const place = document.createElement('button');
        place.type = 'button';
        place.className = 'place';
        place.textContent = 'Place';
        place.setAttribute(
          'aria-label',
          `Place ${unit.label} (${unit.item_id}, instance ${first}) in the vehicle shown`,
        );
        place.addEventListener('click', () => onPlace({ item_id: unit.item_id, instance: first }, unit.label));
        li.append(' ', place);
      }
      return li;
    }),
  );
}
