/**
 * JSON Schema validators (Ajv) compiled on their first call instead of when their module loads:
 * the service's request schemas took about half a second of CPU to compile at start-up, in every
 * process and every test that imports the service, most of them for routes the process never
 * serves. A schema that Ajv refuses (strict mode) then throws on the first request it checks,
 * which the route tests reach.
 */
import type { ErrorObject, ValidateFunction } from 'ajv';

/** What callers need of a validator: a call that says whether `value` is valid, and the errors of the last call. */
export interface SchemaValidator<T = unknown> {
  (value: unknown): value is T;
  /** The problems of the last call (Ajv's), null or undefined when it passed. */
  readonly errors?: ErrorObject[] | null | undefined;
}

/** A validator that runs `compile` once, on its first call, and is that compiled validator from then on. */
export function validatorOnFirstUse<T = unknown>(compile: () => ValidateFunction<T>): SchemaValidator<T> {
  let compiled: ValidateFunction<T> | undefined;
  const validate = (value: unknown): value is T => (compiled ??= compile())(value);
  Object.defineProperty(validate, 'errors', { get: () => compiled?.errors, enumerable: true });
  return validate;
}

/** One Ajv instance made on first use, for the validators of one module that share it (formats, `$defs`). */
export function sharedOnFirstUse<A>(make: () => A): () => A {
  let made: A | undefined;
  return () => (made ??= make());
}
