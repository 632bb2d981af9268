/**
 * A row action behind a confirmation dialog (the console's revoke, rotate, remove, reset,
 * withdraw and delete; deleting saved data): which row the dialog asks about, and what
 * confirming does: close the dialog, clear the error, act, report a failure, then refresh.
 */
import { useState } from 'react';

/** What a confirmed action does with its row. */
export interface ConfirmedActionSpec<T> {
  /** The action itself (usually one API call); what it throws goes to `report`. */
  act: (row: T) => Promise<void>;
  /** Gets null before `act` runs, then its failure if it throws (the list's error banner). */
  report: (error: unknown) => void;
  /** Runs after `act`, failed or not (usually: reload the list). */
  after: () => void;
}

/**
 * `asking` is the row the dialog asks about (null: the dialog is closed); `ask(row)` opens it,
 * `cancel()` closes it, `confirm()` closes it and runs the action on that row (see
 * ConfirmedActionSpec). Made anew on every render, so `act` sees the page's current state.
 */
export function useConfirmedAction<T>({ act, report, after }: ConfirmedActionSpec<T>) {
  const [asking, setAsking] = useState<T | null>(null);
  return {
    asking,
    ask: (row: T) => setAsking(() => row),
    cancel: () => setAsking(null),
    confirm: async () => {
      const row = asking;
      setAsking(null);
      if (row === null) return;
      report(null);
      try {
        await act(row);
      } catch (err) {
        report(err);
      }
      after();
    },
  };
}
