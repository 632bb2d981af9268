/** Test fixture: a ResolveContext with the spec's default limits, the presets and two templates. */
import type { ItemInput } from '../../../../domain/pack/request.js';
import type { ResolveContext } from '../../../../domain/pack/resolve/resolve.js';
import { findPreset } from '../../../../domain/vehicle/presets.js';

export const TEMPLATES: Readonly<Record<string, ItemInput>> = {
  tpl_crate: {
    label: 'Crate',
    length: 120,
    width: 80,
    height: 100,
    weight: 250,
    rotation: 'upright',
    color: '#112233',
  },
  tpl_drum: { label: 'Drum 200 l', shape: 'drum', radius: 30, height: 90, weight: 220 },
  tpl_no_weight: { label: 'Half', length: 50, width: 50, height: 50 },
};

/** The spec's default organization limits; override any field. */
export function testContext(over: Partial<ResolveContext> = {}): ResolveContext {
  return {
    allowedVehicleTypes: ['truck', 'trailer', 'container', 'pallet'],
    maxItemsPerRequest: 2000,
    maxVehiclesPerRequest: 20,
    maxTimeLimitSeconds: 90,
    axleAccess: false,
    findVehicle: findPreset,
    findTemplate: (id) => (Object.hasOwn(TEMPLATES, id) ? TEMPLATES[id] : undefined),
    seed: 7,
    ...over,
  };
}

/** A small valid body: one 13.6 m trailer given in full, one box item. */
export function validBody(): Record<string, unknown> {
  return {
    reference: 'order-42',
    vehicles: [{ id: 'trailer', type: 'trailer', length: 1360, width: 248, height: 270, max_weight: 24000 }],
    items: [{ id: 'box', length: 120, width: 80, height: 100, weight: 300, quantity: 10 }],
  };
}
