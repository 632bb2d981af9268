/**
 * The units that were not placed, with their reasons (spec UnplacedItem; reasons as in
 * domain/pack/plan.ts UnplacedReason): one row per item and reason, the instances as ranges.
 */
import type { UnplacedUnit } from '../../domain/pack/plan.js';

/** What each spec reason means, for people. */
export const REASON_TEXT: Record<string, string> = {
  no_space: 'no room left in the vehicles the job may use',
  weight_limit: 'room left, but the payload limits are reached',
  load_limit: 'it would overload the units under it or the floor (stack weight, floor load or stack density)',
  axle_limit: 'it would overload an axle or move the centre of gravity out of range',
  vehicle_limit: 'more vehicles were needed than the job may use',
  time_limit: 'the compute time ended before it was tried',
};

/** `1–4, 7, 9–10` for sorted instance numbers. */
export function instanceRanges(instances: readonly number[]): string {
  const sorted = [...instances].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    parts.push(i === j ? String(sorted[i]) : `${sorted[i]}–${sorted[j]}`);
    i = j + 1;
  }
  return parts.join(', ');
}

/** Fills `list` (a `<ul>`) and `heading` with the unplaced units of the plan. */
export function showUnplaced(list: HTMLElement, heading: HTMLElement, unplaced: readonly UnplacedUnit[]): void {
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
      what.textContent = `${instances.length} × ${unit.label}`;
      const why = document.createElement('span');
      why.textContent = ` — ${unit.reason}: ${REASON_TEXT[unit.reason] ?? unit.reason}`;
      const which = document.createElement('span');
      which.className = 'members';
      which.textContent = `${unit.item_id}, instance${instances.length > 1 ? 's' : ''} ${instanceRanges(instances)}`;
      li.append(what, why, which);
      return li;
    }),
  );
}
