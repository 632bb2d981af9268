/**
 * Saved-vehicle commands (spec Endpoints: POST, PATCH, DELETE /v1/vehicles). Pure: the id, time
 * and actor come in with the command; the field rules come in with the decider (`rules`), so a
 * PATCH is checked against the record it is applied to, whichever writer came last.
 */
import { DomainError, type Decider } from '../decider/decider.js';
import { evolveVehicle, initialVehicle, type Actor, type VehicleEvent, type VehicleFields, type VehicleState } from './vehicle.js';

export type VehicleCommand =
  | { type: 'CreateVehicle'; vehicleId: string; orgId: string; fields: VehicleFields; actor: Actor; now: string }
  | { type: 'UpdateVehicle'; vehicleId: string; orgId: string; patch: Partial<VehicleFields>; actor: Actor; now: string }
  | { type: 'DeleteVehicle'; vehicleId: string; orgId: string; actor: Actor; now: string };

/** A problem of a record's fields, as the spec's `details[]` entries. */
export interface FieldProblem {
  path: string;
  code: string;
  message: string;
}

/** The rules a whole record must meet (JSON Schema and cross-field rules); [] when valid. */
export type VehicleRules = (fields: VehicleFields) => FieldProblem[];

function refuseInvalid(problems: FieldProblem[]): void {
  if (problems.length === 0) return;
  const n = problems.length;
  throw new DomainError('validation_failed', `The vehicle is not valid: ${n} problem${n === 1 ? '' : 's'} (see details).`, problems);
}

/** The state of the caller's live vehicle, or 404 vehicle_not_found (another organization's ids look absent). */
function mustBeOwn(state: VehicleState, command: { vehicleId: string; orgId: string }): VehicleFields {
  if (state.status !== 'active' || state.orgId !== command.orgId || !state.fields) {
    throw new DomainError('vehicle_not_found', `no vehicle ${command.vehicleId}`);
  }
  return state.fields;
}

const sameValue = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * Create: 409 conflict when the id exists; 422 validation_failed when `rules` find problems.
 * Update: 404 vehicle_not_found; the patch is merged over the stored fields and the whole
 * record checked (422); a patch that changes nothing records nothing. Delete: 404 when absent.
 */
export function decideVehicle(command: VehicleCommand, state: VehicleState, rules: VehicleRules): VehicleEvent[] {
  switch (command.type) {
    case 'CreateVehicle':
      if (state.status !== 'none') throw new DomainError('conflict', `vehicle ${command.vehicleId} exists already`);
      refuseInvalid(rules(command.fields));
      return [
        {
          type: 'VehicleCreated',
          data: { vehicleId: command.vehicleId, orgId: command.orgId, fields: command.fields, createdAt: command.now, createdBy: command.actor },
        },
      ];
    case 'UpdateVehicle': {
      const current = mustBeOwn(state, command);
      const fields = { ...current, ...command.patch } as VehicleFields;
      refuseInvalid(rules(fields));
      if (sameValue(fields, current)) return [];
      return [{ type: 'VehicleUpdated', data: { vehicleId: command.vehicleId, orgId: command.orgId, fields, updatedAt: command.now, updatedBy: command.actor } }];
    }
    case 'DeleteVehicle':
      mustBeOwn(state, command);
      return [{ type: 'VehicleDeleted', data: { vehicleId: command.vehicleId, orgId: command.orgId, deletedAt: command.now, deletedBy: command.actor } }];
  }
}

/** The decider of `vehicle-<id>` streams, checking records with `rules` (the organization's). */
export function vehicleDecider(rules: VehicleRules): Decider<VehicleState, VehicleCommand, VehicleEvent> {
  return {
    initialState: initialVehicle,
    evolve: evolveVehicle,
    decide: (command, state) => decideVehicle(command, state, rules),
  };
}
