/** The `X-Credits-Remaining` header: available credits of the caller's organization (spec Endpoints). */
import type { Response } from 'express';
import { availableCredits } from '../../../domain/ledger/ledger.js';
import { toCredits } from '../../../domain/ledger/money.js';
import { BALANCES, type BalanceDocument } from '../../../projections/balances/projection.js';
import type { UseCasePorts } from '../../../application/ports.js';

export async function setCreditsHeader(
  ctx: Pick<UseCasePorts, 'reads' | 'clock'>,
  res: Response,
  orgId: string,
): Promise<void> {
  const balance = await ctx.reads.collection<BalanceDocument>(BALANCES).get(orgId);
  const available = balance ? availableCredits(balance, ctx.clock()) : 0;
  res.setHeader(
    'X-Credits-Remaining',
    toCredits(available)
      .toFixed(6)
      .replace(/\.?0+$/, ''),
  );
}
