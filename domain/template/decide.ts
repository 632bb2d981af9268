/**
 * Cargo-template commands (spec Endpoints: POST, PATCH, DELETE /v1/templates). Pure: the id,
 * time and actor come in with the command; the field rules come in with the decider (`rules`), so
 * a PATCH is checked against the record it is applied to, whichever writer came last. The plan
 * cap on templates is checked by the caller against the read model (it spans streams).
 */
import { DomainError, type Decider } from '../decider/decider.js';
import type { FieldProblem } from '../vehicle/decide.js';
import { evolveTemplate, initialTemplate, type Actor, type TemplateEvent, type TemplateFields, type TemplateState } from './template.js';

export type { FieldProblem };

export type TemplateCommand =
  | { type: 'CreateTemplate'; templateId: string; orgId: string; fields: TemplateFields; actor: Actor; now: string }
  | { type: 'UpdateTemplate'; templateId: string; orgId: string; patch: Partial<TemplateFields>; actor: Actor; now: string }
  | { type: 'DeleteTemplate'; templateId: string; orgId: string; actor: Actor; now: string };

/** The rules a whole record must meet (JSON Schema and cross-field rules); [] when valid. */
export type TemplateRules = (fields: TemplateFields) => FieldProblem[];

function refuseInvalid(problems: FieldProblem[]): void {
  if (problems.length === 0) return;
  const n = problems.length;
  throw new DomainError('validation_failed', `The template is not valid: ${n} problem${n === 1 ? '' : 's'} (see details).`, problems);
}

/** The caller's live template, or 404 template_not_found (another organization's ids look absent). */
function mustBeOwn(state: TemplateState, command: { templateId: string; orgId: string }): TemplateFields {
  if (state.status !== 'active' || state.orgId !== command.orgId || !state.fields) {
    throw new DomainError('template_not_found', `no template ${command.templateId}`);
  }
  return state.fields;
}

const sameValue = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * Create: 409 conflict when the id exists; 422 validation_failed when `rules` find problems.
 * Update: 404 template_not_found; the patch is merged over the stored fields and the whole
 * record checked (422); a patch that changes nothing records nothing. Delete: 404 when absent.
 */
export function decideTemplate(command: TemplateCommand, state: TemplateState, rules: TemplateRules): TemplateEvent[] {
  switch (command.type) {
    case 'CreateTemplate':
      if (state.status !== 'none') throw new DomainError('conflict', `template ${command.templateId} exists already`);
      refuseInvalid(rules(command.fields));
      return [
        {
          type: 'TemplateCreated',
          data: { templateId: command.templateId, orgId: command.orgId, fields: command.fields, createdAt: command.now, createdBy: command.actor },
        },
      ];
    case 'UpdateTemplate': {
      const current = mustBeOwn(state, command);
      const fields = { ...current, ...command.patch } as TemplateFields;
      refuseInvalid(rules(fields));
      if (sameValue(fields, current)) return [];
      return [{ type: 'TemplateUpdated', data: { templateId: command.templateId, orgId: command.orgId, fields, updatedAt: command.now, updatedBy: command.actor } }];
    }
    case 'DeleteTemplate':
      mustBeOwn(state, command);
      return [{ type: 'TemplateDeleted', data: { templateId: command.templateId, orgId: command.orgId, deletedAt: command.now, deletedBy: command.actor } }];
  }
}

/** The decider of `template-<id>` streams, checking records with `rules`. */
export function templateDecider(rules: TemplateRules): Decider<TemplateState, TemplateCommand, TemplateEvent> {
  return {
    initialState: initialTemplate,
    evolve: evolveTemplate,
    decide: (command, state) => decideTemplate(command, state, rules),
  };
}
