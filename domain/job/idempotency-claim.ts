/**
 * The claim of one `Idempotency-Key` (spec Endpoints, "Idempotency"; stream
 * `idem-<org>-<sha256(key)>`, domain/job/streams.ts). A request that means to create a job first
 * claims the key for its new job id; the claim is **pending** until that request ends, then
 * **completed** with the job it queued, or **released** when the request was refused (402, 429,
 * 422) or failed before queuing. Every event is appended with the stream's expected revision, so
 * of two requests that read the same state only one claims.
 *
 * What a request does with the state it read is `judgeClaim`: claim, replay a completed claim,
 * refuse another body, wait for a pending claim's outcome, or take over a pending claim whose
 * request has been silent longer than `IDEMPOTENCY_TIMINGS.pendingStaleAfterMs` (its process
 * died; see domain/job/stale-claim.ts for how the take-over fences the old job off).
 */
import type { Command, Decider, DomainEvent } from '../decider/decider.js';

/** The timings of idempotency claims, ms. */
export interface IdempotencyTimings {
  windowMs: number;
  pendingStaleAfterMs: number;
  pendingWaitMs: number;
}

/** The timings of idempotency claims (ms), each with the reason for its size. */
export const IDEMPOTENCY_TIMINGS: Readonly<IdempotencyTimings> = {
  /** Spec Limits: the same key within 24 hours returns the original job. */
  windowMs: 86_400_000,
  /**
   * A pending claim older than this is presumed left by a process that died between the claim
   * and the queueing: a retry (or the repair tick) takes it over. An admission claims, reserves,
   * stores the body and queues within a few ms; 30 s (the orphan-hold margin of the repair tick)
   * leaves a wide margin for a slow store.
   */
  pendingStaleAfterMs: 30_000,
  /**
   * How long a request that finds a pending claim of the same body waits for its outcome before
   * answering `409 conflict` with Retry-After (the request holding the claim is usually done in
   * milliseconds; a job refused for credits is released as fast).
   */
  pendingWaitMs: 10_000,
};

/** How a claim stands. */
export type ClaimStatus = 'pending' | 'completed' | 'released';

/** The data of IdempotencyKeyClaimed: the new job's id, the SHA-256 of the body, when (RFC 3339). */
export interface ClaimData {
  jobId: string;
  bodyHash: string;
  claimedAt: string;
}

/** Why a claim was released without a job. */
export type ClaimReleaseReason = 'refused' | 'failed' | 'abandoned';

export type IdempotencyClaimEvent =
  | DomainEvent<'IdempotencyKeyClaimed', ClaimData>
  /** The claim's request queued its job: replays return it for the rest of the window. */
  | DomainEvent<'IdempotencyClaimCompleted', { jobId: string; completedAt: string }>
  /**
   * The claim's request made no job: refused (402, 429, 422), failed before queuing, or
   * abandoned (taken over after its process died). The next request with the key claims anew.
   */
  | DomainEvent<'IdempotencyClaimReleased', { jobId: string; releasedAt: string; reason: ClaimReleaseReason }>;

/** The latest claim of a key, or null when there never was one. */
export interface ClaimState {
  claim: (ClaimData & { status: ClaimStatus }) | null;
}

export const initialClaimState = (): ClaimState => ({ claim: null });

/**
 * Folds one event. A completion or release names its job: one for another claim than the latest
 * (a late write of a request that lost its claim) changes nothing. Streams written before claims
 * had outcomes hold only IdempotencyKeyClaimed events: such a claim reads as pending, and once
 * stale it is settled by looking at its job (domain/job/stale-claim.ts).
 */
export function evolveClaim(state: ClaimState, event: IdempotencyClaimEvent): ClaimState {
  switch (event.type) {
    case 'IdempotencyKeyClaimed':
      return { claim: { ...event.data, status: 'pending' } };
    case 'IdempotencyClaimCompleted':
      return state.claim?.jobId === event.data.jobId && state.claim.status === 'pending'
        ? { claim: { ...state.claim, status: 'completed' } }
        : state;
    case 'IdempotencyClaimReleased':
      return state.claim?.jobId === event.data.jobId && state.claim.status === 'pending'
        ? { claim: { ...state.claim, status: 'released' } }
        : state;
  }
}

/** What a request with the key does next, given the claim state it read. */
export type ClaimVerdict =
  /** Claim the key for the request's own job (no claim, a released one, or one past the window). */
  | { kind: 'claim' }
  /** A completed claim of the same body inside the window: answer its job, create nothing. */
  | { kind: 'replay'; jobId: string }
  /** A standing claim of another body: 422 (the key is reused only to retry the same body). */
  | { kind: 'other_body' }
  /** A pending claim of the same body: wait for its outcome. */
  | { kind: 'wait'; jobId: string }
  /** A pending claim silent past `pendingStaleAfterMs`: settle it (its process died), then judge again. */
  | { kind: 'stale'; jobId: string };

/**
 * Judges `state` for a request with body hash `bodyHash` at `now` (RFC 3339). A pending claim of
 * another body stands too (the other request may still create its job), inside its staleness.
 */
export function judgeClaim(
  state: ClaimState,
  bodyHash: string,
  now: string,
  timings: { windowMs: number; pendingStaleAfterMs: number } = IDEMPOTENCY_TIMINGS,
): ClaimVerdict {
  const { claim } = state;
  if (!claim || claim.status === 'released') return { kind: 'claim' };
  const age = Date.parse(now) - Date.parse(claim.claimedAt);
  if (claim.status === 'pending') {
    if (age >= timings.pendingStaleAfterMs) return { kind: 'stale', jobId: claim.jobId };
    return claim.bodyHash === bodyHash ? { kind: 'wait', jobId: claim.jobId } : { kind: 'other_body' };
  }
  if (age >= timings.windowMs) return { kind: 'claim' };
  return claim.bodyHash === bodyHash ? { kind: 'replay', jobId: claim.jobId } : { kind: 'other_body' };
}

export type ClaimCommand =
  /** Claims the key for `jobId` when judgeClaim says `claim`; otherwise writes nothing (the caller judges the returned state). */
  | Command<'ClaimKey', { jobId: string; bodyHash: string }>
  /** Completes the pending claim of `jobId` (its job is queued); nothing when it is not the pending claim. */
  | Command<'CompleteClaim', { jobId: string }>
  /** Releases the pending claim of `jobId` (no job); nothing when it is not the pending claim. */
  | Command<'ReleaseClaim', { jobId: string; reason: ClaimReleaseReason }>;

/** Outcome events carry deterministic ids (`<jobId>:claim-completed` / `:claim-released`): a repeat is written once. */
export function decideClaim(command: ClaimCommand, state: ClaimState): IdempotencyClaimEvent[] {
  const { now } = command.metadata;
  switch (command.type) {
    case 'ClaimKey': {
      const { jobId, bodyHash } = command.data;
      if (judgeClaim(state, bodyHash, now).kind !== 'claim') return [];
      return [{ type: 'IdempotencyKeyClaimed', id: `${jobId}:claimed`, data: { jobId, bodyHash, claimedAt: now } }];
    }
    case 'CompleteClaim': {
      const { jobId } = command.data;
      if (state.claim?.jobId !== jobId || state.claim.status !== 'pending') return [];
      return [{ type: 'IdempotencyClaimCompleted', id: `${jobId}:claim-completed`, data: { jobId, completedAt: now } }];
    }
    case 'ReleaseClaim': {
      const { jobId, reason } = command.data;
      if (state.claim?.jobId !== jobId || state.claim.status !== 'pending') return [];
      return [
        { type: 'IdempotencyClaimReleased', id: `${jobId}:claim-released`, data: { jobId, releasedAt: now, reason } },
      ];
    }
  }
}

export const claimDecider: Decider<ClaimState, ClaimCommand, IdempotencyClaimEvent> = {
  initialState: initialClaimState,
  evolve: evolveClaim,
  decide: decideClaim,
};
