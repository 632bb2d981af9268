/**
 * The plan the viewer draws while editing (plan editing): the opened revision's vehicles, each
 * replaced by its rebuilt version from the last check (placements, loading steps, figures), kept
 * in the opened order even when an edit empties one (the check's plan leaves empty vehicles out);
 * the unplaced units as the check has them. Pure.
 */
import type { Plan } from '../../../domain/pack/plan.js';
import type { ViewerPlan, ViewerVehicle } from '../../../api/http/plan-viewer/viewer-plan.js';

/** `opened` with the vehicles and unplaced units of `checked` (the check's rebuilt plan). */
export function editedPlan(opened: ViewerPlan, checked: Plan): ViewerPlan {
  const vehicles = opened.vehicles.map((v): ViewerVehicle => {
    const c = checked.vehicles.find((x) => x.vehicle_id === v.vehicle_id && x.copy === v.copy);
    if (c) return { ...c, index: v.index, blocked_areas: v.blocked_areas, aux_deck: v.aux_deck };
    // Emptied by the edits: drawn empty (no axle loads: the check computed none).
    const { axle_loads: _loads, ...empty } = v;
    return {
      ...empty,
      placements: [],
      items_placed: 0,
      total_weight: 0,
      volume_utilization: 0,
      weight_utilization: 0,
      center_of_gravity: { x: v.length / 2, y: 0, z: v.width / 2 },
    };
  });
  return { ...opened, vehicles, unplaced: checked.unplaced };
}
