/**
 * Releasing the credits held for a job that was admitted but never queued (DESIGN §4: the
 * admission saga's undo, and the repair of an admission that stopped half way). Settles the job
 * on the ledger as `server_restarted`: nothing is charged, the hold is released, and the ledger
 * refuses a second settlement, so running it twice writes once.
 */
import type { Actor } from '../decider/actor.js';
import { handleCommand } from '../decider/handle.js';
import type { EventStore } from '../ports/event-store.js';
import { ledgerDecider } from './decide.js';
import { CURRENT_RATE_CARD } from './rate-card.js';
import { ledgerStream } from './streams.js';

/**
 * Releases job `jobId`'s hold on organization `orgId`'s ledger at `now` (RFC 3339), asked by
 * `actor`; resolves with how many events it wrote (0: released before).
 */
export async function releaseUnqueuedJob(
  store: EventStore,
  orgId: string,
  jobId: string,
  now: string,
  actor: Actor,
): Promise<number> {
  const { events } = await handleCommand(store, ledgerStream(orgId), ledgerDecider, {
    type: 'SettleJob',
    data: {
      jobId,
      outcome: 'server_restarted',
      rateCardVersion: CURRENT_RATE_CARD.version,
      vehicles: 0,
      computeMs: 0,
      units: 0,
      budgetMs: 0,
    },
    metadata: { now, actor },
  });
  return events.length;
}
