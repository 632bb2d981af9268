/** The jobs projection: job events and ledger settlements → JobDocument. */
import type { JobEvent } from '../../domain/job/job.js';
import type { LedgerEvent } from '../../domain/ledger/ledger.js';
import type { RecordedEvent } from '../../domain/ports/event-store.js';
import type { ReadStore } from '../../domain/ports/read-store.js';
import type { Projection } from '../projection.js';
import { JOBS, type JobDocument } from './job-document.js';
import { ledgerOrgId } from '../../domain/ledger/streams.js';

type Event = JobEvent | LedgerEvent;

export const jobsProjection: Projection = {
  name: 'jobs',
  async apply(recorded: RecordedEvent, store: ReadStore): Promise<void> {
    const jobs = store.collection<JobDocument>(JOBS);
    const event = { type: recorded.type, data: recorded.data } as Event;
    if (event.type === 'JobQueued') {
      const d = event.data;
      if (await jobs.get(d.jobId)) return;
      await jobs.put({
        id: d.jobId,
        orgId: d.orgId,
        memberId: d.memberId,
        status: 'queued',
        reference: d.reference,
        source: d.source,
        ...(d.projectId !== undefined ? { projectId: d.projectId } : {}),
        createdAt: d.createdAt,
        startedAt: null,
        finishedAt: null,
        expiresAt: d.expiresAt,
        items: d.items,
        maxVehicles: d.maxVehicles,
        budgetMs: d.budgetMs,
        rateCardVersion: d.rateCardVersion,
        reservedMicros: d.reservedMicros,
        chargedMicros: null,
        breakdown: null,
        warnings: d.warnings,
        error: null,
        progress: { stage: 'queued', vehiclesDone: 0, placedItems: 0 },
        itemsPlaced: 0,
        itemsUnplaced: 0,
        vehiclesUsed: 0,
        totalWeight: 0,
        volumeUtilization: 0,
        computeMs: 0,
        position: recorded.position,
      });
      return;
    }
    if (!('jobId' in event.data)) return;
    const doc = await jobs.get(event.data.jobId);
    if (!doc || recorded.position <= doc.position) return;
    doc.position = recorded.position;
    switch (event.type) {
      case 'JobStarted':
        if (ledgerOrgId(recorded.stream) !== undefined) return;
        doc.status = 'running';
        doc.startedAt = event.data.startedAt;
        doc.progress = { stage: 'running', vehiclesDone: 0, placedItems: 0 };
        break;
      case 'JobProgressed':
        if (event.data.stage === 'computing' && !doc.computeStartedAt) doc.computeStartedAt = recorded.recordedAt;
        doc.progress = {
          stage: event.data.stage,
          vehiclesDone: event.data.vehiclesDone,
          placedItems: event.data.placedItems,
        };
        break;
      case 'JobSucceeded': {
        const s = event.data.summary;
        doc.status = 'succeeded';
        doc.finishedAt = event.data.finishedAt;
        doc.computeMs = event.data.computeMs;
        doc.itemsPlaced = s.items_placed;
        doc.itemsUnplaced = s.items_unplaced;
        doc.vehiclesUsed = s.vehicles_used;
        doc.totalWeight = s.total_weight;
        doc.volumeUtilization = s.volume_utilization;
        doc.stopReason = event.data.stopReason ?? null;
        doc.warnings = [...doc.warnings, ...event.data.warnings];
        doc.progress = { stage: 'done', vehiclesDone: s.vehicles_used, placedItems: s.items_placed };
        break;
      }
      case 'JobFailed':
        doc.status = event.data.code === 'canceled' ? 'canceled' : 'failed';
        doc.finishedAt = event.data.finishedAt;
        doc.computeMs = event.data.computeMs;
        doc.error = { code: event.data.code, message: event.data.message };
        doc.stopReason =
          event.data.code === 'time_limit_exceeded'
            ? 'time_limit'
            : event.data.code === 'canceled' && doc.computeStartedAt
              ? 'canceled'
              : null;
        doc.progress = { ...doc.progress, stage: 'done' };
        break;
      case 'JobWarned':
        doc.warnings = [...doc.warnings.filter((w) => w.code !== event.data.warning.code), event.data.warning];
        break;
      case 'JobBodyDeleted':
        doc.bodyDeletedAt = event.data.deletedAt;
        break;
      case 'JobLinksRevoked':
        doc.linkGeneration = event.data.generation;
        break;
      case 'JobSettled':
        doc.chargedMicros = event.data.charged;
        doc.breakdown = event.data.breakdown;
        break;
      default:
        return;
    }
    await jobs.put(doc);
  },
};
