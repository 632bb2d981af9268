/**
 * Pending Idempotency-Key claims (collection `idempotency_claims`; domain/job/idempotency-claim.ts):
 * a claim is here from IdempotencyKeyClaimed until its completion or release. The repair tick
 * settles the ones older than the pending timeout (domain/job/repair.ts); claims that ended are
 * not kept, so the collection holds only the admissions under way (and those left by a crash).
 */
import type { IdempotencyClaimEvent } from '../../domain/job/idempotency-claim.js';
import { isIdempotencyStream } from '../../domain/job/streams.js';
import type { RecordedEvent } from '../../domain/ports/event-store.js';
import type { IndexSpec, ReadStore } from '../../domain/ports/read-store.js';
import type { Projection } from '../projection.js';

export const IDEMPOTENCY_CLAIMS = 'idempotency_claims';

/** One pending claim; `id` is the key's stream (`idem-<org>-<keyHash>`). Times RFC 3339. */
export interface PendingClaimDocument {
  id: string;
  jobId: string;
  claimedAt: string;
  position: number;
}

/** The repair tick finds claims by age. */
export const IDEMPOTENCY_CLAIM_INDEXES: readonly IndexSpec[] = [{ keys: [['claimedAt', 1]] }];

export const idempotencyClaimsProjection: Projection = {
  name: 'idempotency-claims',
  async apply(recorded: RecordedEvent, store: ReadStore): Promise<void> {
    if (!isIdempotencyStream(recorded.stream)) return;
    const claims = store.collection<PendingClaimDocument>(IDEMPOTENCY_CLAIMS);
    const event = { type: recorded.type, data: recorded.data } as IdempotencyClaimEvent;
    const current = await claims.get(recorded.stream);
    if (current && recorded.position <= current.position) return;
    switch (event.type) {
      case 'IdempotencyKeyClaimed':
        await claims.put({
          id: recorded.stream,
          jobId: event.data.jobId,
          claimedAt: event.data.claimedAt,
          position: recorded.position,
        });
        return;
      case 'IdempotencyClaimCompleted':
      case 'IdempotencyClaimReleased':
        if (current?.jobId === event.data.jobId) await claims.delete(recorded.stream);
        return;
    }
  },
};
