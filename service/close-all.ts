/** Closing what a process opened (service/open-adapters.ts and the roles' stops). */

/**
 * Runs every closer in `closers` from last to first, even when some fail; then throws the one
 * error, or an AggregateError of all, so no connection stays open behind a failing one.
 */
export async function closeAll(closers: readonly (() => Promise<void> | void)[]): Promise<void> {
  const errors: unknown[] = [];
  for (const c of [...closers].reverse()) {
    try {
      await c();
    } catch (err) {
      errors.push(err);
    }
  }
  if (errors.length === 1) throw errors[0];
  if (errors.length > 1) throw new AggregateError(errors, `closing the adapters: ${errors.length} failed`);
}
