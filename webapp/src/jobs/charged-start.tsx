/**
 * A billed action behind its price (Re-run, Re-plan from step K, a project's Pack): the free
 * estimate of the request the action will send (POST /v1/estimate, spec Endpoints) first, then a
 * confirmation saying "at most N credits" (the estimate's `estimated_cost.max_credits`, what the
 * job reserves), and the job is started only on confirm, with one Idempotency-Key per confirm.
 * An estimate that fails, or says the request cannot run, shows in the error banner and starts
 * nothing; Cancel starts nothing.
 */
import { useState, type ReactNode } from 'react';
import { ApiFailure, call, newIdempotencyKey } from '../api.js';
import type { Estimate, Job } from '../playground/pack-request.js';
import { credits } from '../playground/format.js';
import { ConfirmDialog } from '../ui/confirm-dialog.js';

/** A billed action: the request body it sends (estimated first) and how it starts the job with it. */
export interface ChargedAction<B> {
  /** The dialog's title, e.g. "Run this job again?". */
  title: string;
  /** The confirming button's label, e.g. "Re-run". */
  confirmLabel: string;
  /** Reads or builds the PackRequest the action sends (or, for a project, the request it packs). */
  prepare: () => Promise<B>;
  /** Starts the job with `body` and `idempotencyKey`; resolves with the new job. */
  start: (body: B, idempotencyKey: string) => Promise<Job>;
  /** Gets the new job (usually: open its page). */
  started: (job: Job) => void;
}

/** The asking in progress: its action, the body estimated and the estimate. */
interface Asking<B> {
  action: ChargedAction<B>;
  body: B;
  estimate: Estimate;
}

/** The ApiFailure of an estimate that says the request cannot run (its `errors` as details). */
function notRunnable(estimate: Estimate): ApiFailure {
  const n = estimate.errors.length;
  return new ApiFailure(
    422,
    'validation_failed',
    `The request cannot run: ${n === 0 ? 'the estimate refused it' : `${n} problem${n === 1 ? '' : 's'} (see below)`}.`,
    estimate.errors,
  );
}

/**
 * `ask(action)` estimates and opens the confirmation; `busy` while estimating or starting;
 * `failure` (for an ErrorBanner): the estimate's or the start's; `dialog`: the confirmation to
 * render once on the page.
 */
export function useChargedStart<B>(): {
  ask: (action: ChargedAction<B>) => Promise<void>;
  busy: boolean;
  failure: unknown;
  dialog: ReactNode;
} {
  const [asking, setAsking] = useState<Asking<B> | null>(null);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);

  async function ask(action: ChargedAction<B>) {
    setFailure(null);
    setBusy(true);
    try {
      const body = await action.prepare();
      const estimate = await call<Estimate>('POST', '/v1/estimate', body);
      if (!estimate.valid) throw notRunnable(estimate);
      setAsking({ action, body, estimate });
    } catch (err) {
      setFailure(err);
    } finally {
      setBusy(false);
    }
  }

  async function confirm() {
    const chosen = asking;
    setAsking(null);
    if (!chosen) return;
    setBusy(true);
    try {
      chosen.action.started(await chosen.action.start(chosen.body, newIdempotencyKey()));
    } catch (err) {
      setFailure(err);
    } finally {
      setBusy(false);
    }
  }

  const dialog = asking ? (
    <ConfirmDialog
      open
      title={asking.action.title}
      confirmLabel={asking.action.confirmLabel}
      danger={false}
      onConfirm={() => void confirm()}
      onCancel={() => setAsking(null)}
    >
      <p data-field="charge">
        This starts a new job, billed like any job: at most {credits(asking.estimate.estimated_cost.max_credits)},
        reserved until it ends. Available: {credits(asking.estimate.balance.available_credits)}.
      </p>
    </ConfirmDialog>
  ) : null;

  return { ask, busy, failure, dialog };
}
