/**
 * Starts the webhook dispatcher and delivery worker with what they read from the read models:
 * the endpoints live at a log position, the job as GET /v1/jobs/{id} shows it, and the
 * deliveries due now. Run by the scheduler role (service/roles/scheduler.ts); with several
 * scheduler processes each attempt is still POSTed by one of them (the attempt claim,
 * domain/webhook/deliver.ts), leased for attemptLeaseMs of the sender's timeout (30 s for the
 * default 10 s), and each delivery is scheduled once whichever dispatcher stores it
 * (domain/webhook/dispatch.ts). Each POST is logged (`webhook delivered` / `webhook attempt
 * failed` with deliveryId, endpointId, eventId, attempt, take, statusCode, error, ms, recorded)
 * by the process that sent it.
 *
 * Environment (read by service/config.ts, checked in service/process-settings.ts):
 * WEBHOOK_ALLOW_PRIVATE_TARGETS (`true` lets targets resolve to internal addresses; default
 * false), WEBHOOK_RETRY_BASE_MS (wait after the first failed attempt, doubled after each further
 * one; default 30000), WEBHOOK_POLL_MS (how often due retries are looked for; default 1000).
 */
import type { Request } from 'express';
import { httpWebhookSender, WEBHOOK_TIMEOUT_MS } from '../adapters/http/webhook-sender.js';
import type { WebhookSender } from '../domain/ports/webhook-sender.js';
import { attemptLeaseMs, WebhookDelivery } from '../domain/webhook/deliver.js';
import { WebhookDispatch } from '../domain/webhook/dispatch.js';
import type { WebhookEventKind } from '../domain/webhook/event-kinds.js';
import type { RetryPolicy } from '../domain/webhook/retry-policy.js';
import { JOBS, type JobDocument } from '../projections/jobs/job-document.js';
import {
  WEBHOOK_DELIVERIES,
  WEBHOOK_ENDPOINTS,
  type WebhookDeliveryDocument,
  type WebhookEndpointDocument,
} from '../projections/webhooks/projection.js';
import { jobView } from '../api/http/jobs/job-view.js';
import { disableWebhooksOfFormerMembers, disableWebhooksOfMember } from '../application/member-webhooks.js';
import { ORGANIZATIONS, type OrganizationDocument } from '../projections/organizations/projection.js';
import { serviceActor } from '../domain/decider/actor.js';
import type { Services } from '../api/http/services.js';

/** How long the dispatcher waits for the read models to include an event before trying it again, ms. */
const READ_MODEL_WAIT_MS = 30_000;

export interface WebhookSettings {
  /** Base of the links inside the job (result_url, pdf_url): PUBLIC_BASE_URL, else the service's own URL. */
  baseUrl: string;
  allowPrivateTargets: boolean;
  policy: RetryPolicy;
  pollMs: number;
  /** Default: HTTP(S) with the internal-address check (adapters/http/webhook-sender.ts). */
  sender?: WebhookSender;
}

/** The job view needs a request only for its base URL: one that answers with `baseUrl`'s. */
function requestFor(baseUrl: string): Request {
  const url = new URL(baseUrl);
  return {
    protocol: url.protocol.slice(0, -1),
    get: (name: string) => (name.toLowerCase() === 'host' ? url.host : undefined),
  } as unknown as Request;
}

/** Starts both loops; resolves with their stop. */
export async function startWebhooks(services: Services, settings: WebhookSettings): Promise<() => Promise<void>> {
  const { store, reads, projections, clock, log } = services;
  const request = requestFor(settings.baseUrl);
  const caughtUp = async (position: number): Promise<void> => {
    if (!(await projections.waitFor(position, READ_MODEL_WAIT_MS)))
      throw new Error(`the read models did not reach log position ${position}`);
  };
  const worker = new WebhookDelivery({
    store,
    clock,
    sender: settings.sender ?? httpWebhookSender({ allowPrivate: settings.allowPrivateTargets }),
    policy: settings.policy,
    // Sized for the HTTP sender's timeout; a sender given in the settings is cut off by the worker within the same lease.
    leaseMs: attemptLeaseMs(WEBHOOK_TIMEOUT_MS),
    pollMs: settings.pollMs,
    async due(now, limit) {
      const due = await reads
        .collection<WebhookDeliveryDocument>(WEBHOOK_DELIVERIES)
        .find({ where: { status: 'pending', nextAttemptAt: { lte: now } }, sortBy: 'nextAttemptAt', limit });
      return due.map((d) => d.id);
    },
    // One line per POST (domain/webhook/deliver.ts WebhookPost): the operator sees every request a receiver got.
    onAttempt: (post) =>
      log.info(
        post,
        post.statusCode !== null && post.statusCode < 300 && post.statusCode >= 200
          ? 'webhook delivered'
          : 'webhook attempt failed',
      ),
    onError: (err) => log.error({ err }, 'webhook delivery step failed'),
  });
  const dispatch = new WebhookDispatch({
    store,
    clock,
    async endpointsFor(orgId: string, kind: WebhookEventKind, position: number) {
      await caughtUp(position);
      const all = await reads.collection<WebhookEndpointDocument>(WEBHOOK_ENDPOINTS).find({ where: { orgId } });
      // Nothing goes to an endpoint whose creator has left, disabled yet or not (a removal older
      // than the disabling, or an endpoint registered by a lagging process after the removal).
      const org = await reads.collection<OrganizationDocument>(ORGANIZATIONS).get(orgId);
      const left = (creatorId: string): boolean => !!org?.formerMembers?.[creatorId] && !org.members[creatorId];
      return (
        all
          // A disabled endpoint (its creator left) gets nothing more, whatever the event's position.
          .filter(
            (e) =>
              e.registeredPosition < position &&
              (e.deletedPosition === null || e.deletedPosition > position) &&
              !e.disabledAt &&
              e.events.includes(kind),
          )
          .filter((e) => !left(e.createdBy.id))
          .map((e) => e.id)
      );
    },
    async jobView(jobId: string, position: number) {
      await caughtUp(position);
      const job = await reads.collection<JobDocument>(JOBS).get(jobId);
      return job ? jobView(services, request, job) : undefined;
    },
    async disableEndpointsOf(orgId: string, memberId: string, position: number) {
      await caughtUp(position);
      const done = await disableWebhooksOfMember(services, orgId, memberId, serviceActor('scheduler'));
      // The events after this one are dispatched against read models that show the endpoints disabled.
      if (done.disabled > 0) await caughtUp(done.position);
      return done.disabled;
    },
    onScheduled: () => worker.wake(),
    onError: (err, event) =>
      event
        ? log.error({ err, position: event.position }, 'webhook dispatch step failed; trying again')
        : log.error({ err }, 'webhook dispatcher stopped on an unexpected error'),
    outageLog: log,
  });
  // Endpoints of members removed before removals disabled them (or missed by a lagging read
  // model) are disabled once at start, so the owner's Webhooks page shows them as they act.
  await disableWebhooksOfFormerMembers(services, serviceActor('scheduler')).catch((err: unknown) =>
    log.error({ err }, 'disabling the webhook endpoints of former members failed; their endpoints still get nothing'),
  );
  await dispatch.start();
  worker.start();
  log.info(
    { retryBaseMs: settings.policy.baseMs, allowPrivateTargets: settings.allowPrivateTargets },
    'webhook dispatcher following the event log',
  );
  return async () => {
    await dispatch.stop();
    await worker.stop();
  };
}
