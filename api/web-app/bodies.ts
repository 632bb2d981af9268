/**
 * JSON Schemas of the web app's own request bodies (/app/api), compiled once, on first use; a body
 * that breaks one answers 422 validation_failed with every problem in `details` (spec Errors).
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import { DISPLAY_UNITS, SCOPES } from '../../domain/organization/organization.js';
import { ApiError } from '../http/errors.js';
import { PASSWORD_MAX, PASSWORD_MIN } from '../../application/password.js';
import { schemaProblemsOf } from '../http/saved-record.js';
import { sharedOnFirstUse, validatorOnFirstUse, type SchemaValidator } from '../http/schema-validator.js';

const ajv = sharedOnFirstUse(() => {
  const made = new Ajv2020({ allErrors: true, strict: true, verbose: true });
  ajvFormats.default(made);
  return made;
});

const email = { type: 'string', format: 'email', maxLength: 254 };
const password = { type: 'string', minLength: PASSWORD_MIN, maxLength: PASSWORD_MAX };
const name = { type: 'string', maxLength: 100, pattern: '\\S' }; // at least one visible character

/** POST /app/api/session: `{email, password}`. */
export const validateSignIn = validatorOnFirstUse(() =>
  ajv().compile({
    type: 'object',
    additionalProperties: false,
    required: ['email', 'password'],
    properties: { email: { type: 'string', maxLength: 254 }, password: { type: 'string', maxLength: PASSWORD_MAX } },
  }),
);
/** POST /app/api/invitations/:token/accept: `{name, password}` (password 10–200 characters). */
export const validateAccept = validatorOnFirstUse(() =>
  ajv().compile({
    type: 'object',
    additionalProperties: false,
    required: ['name', 'password'],
    properties: { name, password },
  }),
);
/** POST /app/api/invitations/:token/accept of a password reset (roles): `{password, name?}`; the name stays the member's. */
export const validateResetAccept = validatorOnFirstUse(() =>
  ajv().compile({
    type: 'object',
    additionalProperties: false,
    required: ['password'],
    properties: { name, password },
  }),
);
/**
 * POST /app/api/password (roles): `{current_password, new_password}`; the new one 10–200
 * characters (application/password.ts), the current one only bounded (a wrong one answers 422 at its path).
 */
export const validatePasswordChange = validatorOnFirstUse(() =>
  ajv().compile({
    type: 'object',
    additionalProperties: false,
    required: ['current_password', 'new_password'],
    properties: { current_password: { type: 'string', maxLength: PASSWORD_MAX }, new_password: password },
  }),
);
/** POST /app/api/invitations: `{email, role?: 'member'}`. */
export const validateInvite = validatorOnFirstUse(() =>
  ajv().compile({
    type: 'object',
    additionalProperties: false,
    required: ['email'],
    properties: { email, role: { enum: ['member'] } },
  }),
);
/** POST /app/api/keys: `{name, scopes?, expires_at?, allowed_ips?}`. */
export const validateKeyInput = validatorOnFirstUse(() =>
  ajv().compile({
    type: 'object',
    additionalProperties: false,
    required: ['name'],
    properties: {
      name,
      scopes: { type: 'array', minItems: 1, uniqueItems: true, items: { enum: [...SCOPES] } },
      expires_at: { type: ['string', 'null'], format: 'date-time' },
      allowed_ips: { type: 'array', maxItems: 50, items: { type: 'string', maxLength: 64 } },
    },
  }),
);

/**
 * POST /app/api/keys/:id/rotate: `{prefix}`, the display prefix of the secret to replace as the
 * console listed it (the secret and its hash are never shown).
 */
export const validateRotation = validatorOnFirstUse(() =>
  ajv().compile({
    type: 'object',
    additionalProperties: false,
    required: ['prefix'],
    properties: { prefix: { type: 'string', minLength: 1, maxLength: 64 } },
  }),
);

/** PUT /app/api/organization/display_units: `{display_units: 'metric' | 'imperial'}`. */
export const validateDisplayUnits = validatorOnFirstUse(() =>
  ajv().compile({
    type: 'object',
    additionalProperties: false,
    required: ['display_units'],
    properties: { display_units: { enum: [...DISPLAY_UNITS] } },
  }),
);

/** `body` as `T` when `validate` accepts it; else throws 422 validation_failed with every problem. */
export function checkedBody<T>(validate: SchemaValidator, body: unknown): T {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ApiError('validation_failed', 'the body must be a JSON object', [
      { path: '', code: 'invalid_value', message: 'expected an object' },
    ]);
  }
  const problems = schemaProblemsOf(validate, body);
  if (problems.length > 0) throw new ApiError('validation_failed', 'the body has problems; see details', problems);
  return body as T;
}
