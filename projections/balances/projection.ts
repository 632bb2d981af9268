/**
 * The balances projection (collection `balances`, one document per organization, micro-credits):
 * what GET /v1/balance and X-Credits-Remaining read. Folded with the ledger's own evolve, so the
 * read model and the write side cannot disagree on the rules; the billing audit replay
 * (`npm run replay-billing`, domain/billing-audit) recomputes it independently.
 */
import {
  evolveLedger,
  initialLedger,
  reservedTotal,
  type LedgerEvent,
  type LedgerState,
} from '../../domain/ledger/ledger.js';
import type { RecordedEvent } from '../../domain/ports/event-store.js';
import type { ReadStore } from '../../domain/ports/read-store.js';
import type { Projection } from '../projection.js';
import { ledgerOrgId } from '../../domain/ledger/streams.js';

export const BALANCES = 'balances';

export interface BalanceDocument {
  id: string;
  subscription: number;
  subscriptionExpiresAt: string | null;
  purchased: number;
  reserved: number;
  ledger: LedgerState;
  position: number;
}

export const balancesProjection: Projection = {
  name: 'balances',
  async apply(recorded: RecordedEvent, store: ReadStore): Promise<void> {
    const orgId = ledgerOrgId(recorded.stream);
    if (orgId === undefined) return;
    const balances = store.collection<BalanceDocument>(BALANCES);
    const doc = (await balances.get(orgId)) ?? {
      id: orgId,
      subscription: 0,
      subscriptionExpiresAt: null,
      purchased: 0,
      reserved: 0,
      ledger: initialLedger(),
      position: 0,
    };
    if (recorded.position <= doc.position) return;
    const ledger = evolveLedger(doc.ledger, { type: recorded.type, data: recorded.data } as LedgerEvent);
    await balances.put({
      id: orgId,
      subscription: ledger.subscription,
      subscriptionExpiresAt: ledger.subscriptionExpiresAt,
      purchased: ledger.purchased,
      reserved: reservedTotal(ledger),
      ledger,
      position: recorded.position,
    });
  },
};
