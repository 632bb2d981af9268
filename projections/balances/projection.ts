/**
 * The balances projection (micro-credits): what GET /v1/balance, X-Credits-Remaining and the
 * estimate read, and the open reservations start-up recovery lists.
 * - collection `balances`, one small document per organization: the ledger's running sums
 *   (funds, reserved, jobs queued and running), never its list of jobs;
 * - collection `reservations`, one document per open reservation (admitted, not yet settled):
 *   the amount a settlement releases and whether the job holds a slot; deleted at settlement.
 * Each event costs O(1) documents whatever the number of jobs held. Folded with the ledger's own
 * rule (domain/ledger/ledger.ts evolveFigures), so the read model and the write side cannot
 * disagree; the billing audit replay (`npm run replay-billing`, domain/billing-audit) recomputes
 * it independently. The runner writes a batch's documents in one transaction (SQLite), so a
 * balance and its reservations never disagree; the balance's position makes a replayed event a
 * no-op, and the order of the writes keeps a retry right in a store without transactions.
 */
import {
  evolveFigures,
  noFigures,
  type Hold,
  type LedgerEvent,
  type LedgerFigures,
} from '../../domain/ledger/ledger.js';
import type { RecordedEvent } from '../../domain/ports/event-store.js';
import type { IndexSpec, ReadStore } from '../../domain/ports/read-store.js';
import type { Projection } from '../projection.js';
import { ledgerOrgId } from '../../domain/ledger/streams.js';

export const BALANCES = 'balances';
export const RESERVATIONS = 'reservations';

/** An organization's balance figures (LedgerFigures, micro-credits) and the last ledger event applied. */
export interface BalanceDocument extends LedgerFigures {
  /** The organization id. */
  id: string;
  /** Global position of the last ledger event applied. */
  position: number;
}

/** One open reservation of a job on its organization's ledger (micro-credits). */
export interface ReservationDocument {
  /** The job id. */
  id: string;
  orgId: string;
  reserved: number;
  /** `queued`: admitted, waiting for a compute slot (or never queued); `running`: holds a slot. */
  status: 'queued' | 'running';
  /** Global position of the job's JobAdmitted (admission order). */
  admittedPosition: number;
  /** Global position of the last ledger event applied to this reservation. */
  position: number;
}

/** Recovery lists an organization's open reservations. */
export const RESERVATION_INDEXES: readonly IndexSpec[] = [{ keys: [['orgId', 1]] }];

/** The balance of an organization with no ledger event yet. */
export const emptyBalance = (orgId: string): BalanceDocument => ({ id: orgId, ...noFigures(), position: 0 });

export const balancesProjection: Projection = {
  name: 'balances',
  async apply(recorded: RecordedEvent, store: ReadStore): Promise<void> {
    const orgId = ledgerOrgId(recorded.stream);
    if (orgId === undefined) return;
    const balances = store.collection<BalanceDocument>(BALANCES);
    const reservations = store.collection<ReservationDocument>(RESERVATIONS);
    const event = { type: recorded.type, data: recorded.data } as LedgerEvent;
    const doc = (await balances.get(orgId)) ?? emptyBalance(orgId);
    if (recorded.position <= doc.position) {
      // Applied before. A store without transactions may have stopped between the balance and
      // the reservation's deletion (written in that order): delete it now (idempotent).
      if (event.type === 'JobSettled') await reservations.delete(event.data.jobId);
      return;
    }
    let stored: ReservationDocument | undefined;
    if (event.type === 'JobAdmitted' || event.type === 'JobStarted' || event.type === 'JobSettled') {
      stored = await reservations.get(event.data.jobId);
      if (stored && stored.orgId !== orgId) stored = undefined; // job ids are unique: never another ledger's
    }
    // The job's hold before this event. A reservation written by this very event (an attempt
    // that stopped before the balance, in a store without transactions) is read as before it.
    let hold: Hold | undefined = stored && { reserved: stored.reserved, running: stored.status === 'running' };
    if (stored?.position === recorded.position) {
      hold = event.type === 'JobAdmitted' ? undefined : { reserved: stored.reserved, running: false };
    }
    const figures = evolveFigures(doc, event, hold);
    const balance: BalanceDocument = { id: orgId, ...figures, position: recorded.position };
    if (event.type === 'JobAdmitted' && !hold) {
      await reservations.put({
        id: event.data.jobId,
        orgId,
        reserved: event.data.reserved,
        status: 'queued',
        admittedPosition: recorded.position,
        position: recorded.position,
      });
      await balances.put(balance);
    } else if (event.type === 'JobStarted' && stored && hold && !hold.running) {
      await reservations.put({ ...stored, status: 'running', position: recorded.position });
      await balances.put(balance);
    } else if (event.type === 'JobSettled' && stored) {
      await balances.put(balance);
      await reservations.delete(stored.id);
    } else {
      await balances.put(balance);
    }
  },
};
