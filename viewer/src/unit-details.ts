/**
 * The details of the unit picked in the 3D view (issue 9: "click a unit to see item, label,
 * instance, step, weight, position and orientation"; a round unit adds its radius, issue 10
 * item 4). Each value is a `<dd data-field=…>` whose
 * `data-value` holds the raw figure (cm, kg) and whose text is for people.
 */
import type { ViewerItem } from '../../api/viewer-plan.js';
import type { Placement } from '../../domain/pack/plan.js';
import { orientationWords } from './plan-words.js';

const cm = (v: number): string => `${Number(v.toFixed(1))}`;
const kg = (v: number): string => `${Number(v.toFixed(2)).toLocaleString('en-US')} kg`;

/** Fills `panel` (a `<dl>`) with `p`'s details, or a hint when nothing is picked. */
export function showUnit(panel: HTMLElement, p: Placement | null, item: ViewerItem | undefined): void {
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
  const rows: [field: string, name: string, text: string, value: string][] = [
    ['item', 'Item', item && item.label !== p.label ? `${p.item_id} (${item.label})` : p.item_id, p.item_id],
    ['label', 'Label', p.label, p.label],
    ['instance', 'Instance', String(p.instance), String(p.instance)],
    ['step', 'Step', String(p.step), String(p.step)],
    ['weight', 'Weight', kg(p.weight), String(p.weight)],
    ['position', 'Position (x, y, z)', `${cm(p.x)}, ${cm(p.y)}, ${cm(p.z)} cm`, `${p.x},${p.y},${p.z}`],
    ['size', 'Size as placed (l × w × h)', `${cm(p.length)} × ${cm(p.width)} × ${cm(p.height)} cm`, `${p.length},${p.width},${p.height}`],
    ['orientation', 'Orientation', `${p.orientation}: ${orientationWords(p.orientation)}`, p.orientation],
    ['rotated', 'Rotated', p.rotated ? 'yes' : 'no', String(p.rotated)],
  ];
  if (item && (item.shape === 'cylinder' || item.shape === 'drum')) {
    // Round units (issue 10 item 4): the size above is the bounding box, 2·radius across.
    const r = item.length / 2;
    rows.splice(7, 0, ['radius', `Radius (${item.shape})`, `${cm(r)} cm`, String(r)]);
  }
  if (item?.hazardous) rows.push(['hazardous', 'Hazardous', 'yes', 'true']);
  for (const [field, name, text, value] of rows) {
    const dt = document.createElement('dt');
    dt.textContent = name;
    const dd = document.createElement('dd');
    dd.dataset['field'] = field;
    dd.dataset['value'] = value;
    dd.textContent = text;
    panel.append(dt, dd);
  }
}
