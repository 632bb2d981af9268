/**
 * The playground's stops control for multi-drop loads (spec Options.group_routing, Group): the
 * routing mode, and the stops (the distinct groups the items name) in delivery order, first
 * delivered at the top, reordered by dragging a stop or by its Up and Down buttons (keyboard).
 * Each stop shows the colour the 3D viewer and the PDF give its group (the group's `color`, else
 * the shared palette, display/item-colour.ts). Reordering writes `groups` with `order` 1, 2, …
 * with the first delivered stop loaded last, at the door (request-edits.ts withDeliveryOrder).
 * Shown only when items name groups.
 */
import { useId, useState, type DragEvent } from 'react';
import type { GroupRouting, Stop } from './request-edits.js';
import { GROUP_ROUTINGS } from './request-edits.js';
import { moved, stopColours } from './stop-order.js';
import './stops-control.css';

/** What each routing mode does, in the spec's words (Options.group_routing). */
const ROUTING_TEXT: Record<GroupRouting, string> = {
  none: 'Stops interleave (groups are informational)',
  routing: 'Load in stop order: a later stop may sit on or beside an earlier one, never below',
  no_stack: 'Load in stop order side by side, never on top of each other',
  wall: 'Each stop its own section of the vehicle',
};

/** The routing choice and `stops` in delivery order; `onOrder` gets the stop names in the new delivery order. */
export function StopsControl({
  stops,
  routing,
  onRouting,
  onOrder,
}: {
  stops: readonly Stop[];
  routing: GroupRouting;
  onRouting: (mode: GroupRouting) => void;
  onOrder: (names: string[]) => void;
}) {
  const id = useId();
  const [dragged, setDragged] = useState<number | null>(null);
  if (stops.length === 0) return null;
  const colours = stopColours(stops);
  const names = stops.map((s) => s.name);
  const move = (from: number, to: number) => onOrder(moved(names, from, to));
  const drop = (e: DragEvent, to: number) => {
    e.preventDefault();
    if (dragged !== null && dragged !== to) move(dragged, to);
    setDragged(null);
  };
  return (
    <section aria-labelledby={`${id}-title`} className="stops-control">
      <h2 id={`${id}-title`}>Stops</h2>
      <fieldset>
        <legend>How stops load</legend>
        {GROUP_ROUTINGS.map((mode) => (
          <label key={mode} className="stops-mode">
            <input
              type="radio"
              name={`${id}-routing`}
              value={mode}
              checked={routing === mode}
              onChange={() => onRouting(mode)}
            />{' '}
            {ROUTING_TEXT[mode]}
          </label>
        ))}
      </fieldset>
      <p id={`${id}-hint`} className="stops-hint">
        Delivery order, first stop at the top (loaded last, at the door). Drag a stop or use its Up and Down buttons.
      </p>
      <ol className="stops-list" aria-describedby={`${id}-hint`} aria-label="Stops in delivery order">
        {stops.map((stop, i) => (
          <li
            key={stop.name}
            draggable
            data-stop={stop.name}
            className={dragged === i ? 'stops-dragged' : undefined}
            onDragStart={(e) => {
              setDragged(i);
              e.dataTransfer.effectAllowed = 'move';
              e.dataTransfer.setData('text/plain', stop.name);
            }}
            onDragOver={(e) => e.preventDefault()}
            onDrop={(e) => drop(e, i)}
            onDragEnd={() => setDragged(null)}
          >
            <span className="stops-swatch" style={{ background: colours.get(stop.name) }} aria-hidden="true" />
            <span className="stops-name">
              {i + 1}. {stop.name}
            </span>
            <button type="button" disabled={i === 0} onClick={() => move(i, i - 1)} aria-label={`Move ${stop.name} up`}>
              Up
            </button>
            <button
              type="button"
              disabled={i === stops.length - 1}
              onClick={() => move(i, i + 1)}
              aria-label={`Move ${stop.name} down`}
            >
              Down
            </button>
          </li>
        ))}
      </ol>
    </section>
  );
}
