/** The `X-Credits-Remaining` header: available credits of the caller's organization (spec Endpoints). */
import type { Response } from 'express';
import { creditsRemainingOf, creditsRemainingValue } from './credits-remaining.js';
import type { BalanceDocument } from '../../../projections/balances/projection.js';
import { readBalance, type HotReadPorts } from '../../../projections/read-model-cache.js';
import type { UseCasePorts } from '../../../application/ports.js';

/** Where the request keeps the balance document the header was set from: null when the organization has none. */
const BALANCE_READ = 'balanceRead';

/**
 * The balance document `setCreditsHeader` read for this request (authentication sets the header
 * on every `/v1` call), so a route showing the balance does not read it again: null when the
 * organization has no balance yet, undefined when the header was not set. Shared: read-only.
 */
export function balanceReadOf(res: Response): BalanceDocument | null | undefined {
  return res.locals[BALANCE_READ] as BalanceDocument | null | undefined;
}

/**
 * Sets `X-Credits-Remaining` from the balance of `orgId` (through the process's read-model cache
 * when it has one) at `now` (RFC 3339; read from the clock after the balance when not given) and
 * keeps the document for `balanceReadOf`.
 */
export async function setCreditsHeader(
  ctx: Pick<UseCasePorts, 'reads' | 'clock'> & HotReadPorts,
  res: Response,
  orgId: string,
  now?: string,
): Promise<void> {
  const balance = await readBalance(ctx, orgId);
  res.locals[BALANCE_READ] = balance ?? null;
  res.setHeader(
    'X-Credits-Remaining',
    balance ? creditsRemainingOf(balance, now ?? ctx.clock()) : creditsRemainingValue(0),
  );
}
