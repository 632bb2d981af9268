/**
 * Exit codes of the `packing` command by error class, so scripts can branch
 * without parsing messages. Documented in the client's README and in `packing --help`.
 */
import {
  AuthenticationError,
  ConflictError,
  InsufficientCreditsError,
  NotFoundError,
  PackingConnectionError,
  PermissionError,
  RateLimitError,
  ServiceUnavailableError,
  ValidationError,
} from '../errors.js';

/** Exit code of each outcome. */
export const EXIT = {
  ok: 0,
  /** An unexpected failure (a bug: please report it). */
  unexpected: 1,
  /** Bad command line, unreadable or invalid input file, or a config file readable by others. */
  usage: 2,
  /** 400 / 422: the service rejected the request (details printed). */
  validation: 3,
  /** 401 / 403 or no key configured. */
  auth: 4,
  /** 404 / 410: no such job, record or link; result expired. */
  notFound: 5,
  /** 409: wrong state now (job not finished, already finished, project busy). */
  conflict: 6,
  /** 402: not enough credits. */
  credits: 7,
  /** 429 after the retries. */
  rateLimited: 8,
  /** 5xx after the retries, or no connection to the service. */
  unavailable: 9,
  /** `pack --wait`: the job ended failed or canceled. */
  jobNotSucceeded: 10,
} as const;

/** Thrown by the CLI for a problem of its own input (exit 2) or configuration. */
export class CliUsageError extends Error {
  override name = 'CliUsageError';
  constructor(
    message: string,
    readonly exitCode: number = EXIT.usage,
  ) {
    super(message);
  }
}

/** The exit code of `error`. */
export function exitCodeOf(error: unknown): number {
  if (error instanceof CliUsageError) return error.exitCode;
  if (error instanceof ValidationError) return EXIT.validation;
  if (error instanceof AuthenticationError || error instanceof PermissionError) return EXIT.auth;
  if (error instanceof NotFoundError) return EXIT.notFound;
  if (error instanceof ConflictError) return EXIT.conflict;
  if (error instanceof InsufficientCreditsError) return EXIT.credits;
  if (error instanceof RateLimitError) return EXIT.rateLimited;
  if (error instanceof ServiceUnavailableError || error instanceof PackingConnectionError) return EXIT.unavailable;
  return EXIT.unexpected;
}
