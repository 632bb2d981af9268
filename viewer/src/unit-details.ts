/**
 * The details of the unit picked in the 3D view ("click a unit to see item, label,
 * instance, step, weight, position and orientation"; a round unit adds its radius).
 * Each value is a `<dd data-field=…>` whose
 * `data-value` holds the raw figure (cm, kg) and whose text is for people: lengths and weights
 * in the organization's display units (measure-words.ts), the item and label isolated
 * (user-label.ts).
 */
import type { ViewerItem } from '../../api/http/plan-viewer/viewer-plan.js';
import type { Placement } from '../../domain/pack/plan.js';
import type { DisplayUnits } from '../../display/units.js';
import { measureWords } from './measure-words.js';
import { orientationWords } from './plan-words.js';
import { userLabel } from './user-label.js';

/** Fills `panel` (a `<dl>`) with `p`'s details in `units`, or a hint when nothing is picked. */
export function showUnit(
  panel: HTMLElement,
  p: Placement | null,
  item: ViewerItem | undefined,
  units: DisplayUnits = 'metric',
): void {
  const m = measureWords(units);
  panel.replaceChildren();
  panel.dataset['instance'] = p ? String(p.instance) : '';
  panel.dataset['item'] = p ? p.item_id : '';
  if (!p) {
    const hint = Object.assign(document.createElement('p'), { role: 'definition' }); // the one child of the <dl> that is no dt/dd pair (axe definition-list)
    hint.className = 'hint';
    hint.textContent = 'Click a unit to see its details.';
    panel.append(hint);
    return;
  }
  const rows: [field: string, name: string, text: string | (Node | string)[], value: string][] = [
    [
      'item',
      'Item',
      item && item.label !== p.label
        ? [userLabel(p.item_id), ' (', userLabel(item.label), ')']
        : [userLabel(p.item_id)],
      p.item_id,
    ],
    ['label', 'Label', [userLabel(p.label)], p.label],
    ['instance', 'Instance', String(p.instance), String(p.instance)],
    ['step', 'Step', String(p.step), String(p.step)],
    ['weight', 'Weight', m.weight(p.weight, 2), String(p.weight)],
    ['position', 'Position (x, y, z)', `${m.figure(p.x)}, ${m.figure(p.y)}, ${m.length(p.z)}`, `${p.x},${p.y},${p.z}`],
    ['size', 'Size as placed (l × w × h)', m.sizes(p.length, p.width, p.height), `${p.length},${p.width},${p.height}`],
    ['orientation', 'Orientation', `${p.orientation}: ${orientationWords(p.orientation)}`, p.orientation],
    ['rotated', 'Rotated', p.rotated ? 'yes' : 'no', String(p.rotated)],
  ];
  if (item && (item.shape === 'cylinder' || item.shape === 'drum')) {
    // Round units: the size above is the bounding box, 2·radius across.
    const r = item.length / 2;
    rows.splice(7, 0, ['radius', `Radius (${item.shape})`, m.length(r), String(r)]);
  }
  if (item?.hazardous) rows.push(['hazardous', 'Hazardous', 'yes', 'true']);
  for (const [field, name, text, value] of rows) {
    const dt = document.createElement('dt');
    dt.textContent = name;
    const dd = document.createElement('dd');
    dd.dataset['field'] = field;
    dd.dataset['value'] = value;
    if (typeof text === 'string') dd.textContent = text;
    else dd.append(...text);
    panel.append(dt, dd);
  }
}
