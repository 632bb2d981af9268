/** The projects projection: `project-<id>` events → ProjectDocument (deleted projects are removed). */
import type { ProjectEvent } from '../../domain/project/project.js';
import type { RecordedEvent } from '../../domain/ports/event-store.js';
import type { ReadStore } from '../../domain/ports/read-store.js';
import type { Projection } from '../projection.js';
import { PROJECTS, type ProjectDocument } from './project-document.js';
import { isProjectStream } from '../../domain/project/streams.js';

export const projectsProjection: Projection = {
  name: 'projects',
  async apply(recorded: RecordedEvent, store: ReadStore): Promise<void> {
    if (!isProjectStream(recorded.stream)) return;
    const projects = store.collection<ProjectDocument>(PROJECTS);
    const event = { type: recorded.type, data: recorded.data } as ProjectEvent;
    if (event.type === 'ProjectCreated') {
      const d = event.data;
      if (await projects.get(d.projectId)) return;
      await projects.put({
        ...d.content,
        id: d.projectId,
        orgId: d.orgId,
        version: 1,
        createdAt: d.at,
        updatedAt: d.at,
        createdBy: d.by,
        updatedBy: d.by,
        createdById: d.by.id,
        plan: null,
        packingJobId: null,
        position: recorded.position,
      });
      return;
    }
    const doc = await projects.get(event.data.projectId);
    if (!doc || recorded.position <= doc.position) return;
    doc.position = recorded.position;
    switch (event.type) {
      case 'ProjectUpdated':
        Object.assign(doc, event.data.changes);
        doc.version += 1;
        doc.updatedAt = event.data.at;
        doc.updatedBy = event.data.by;
        break;
      case 'ProjectDeleted':
        await projects.delete(doc.id);
        return;
      case 'ProjectPackStarted':
        doc.packingJobId = null;
        break;
      case 'ProjectPackJobAssigned':
        doc.packingJobId = event.data.jobId;
        break;
      case 'ProjectPlanSaved':
        doc.plan = {
          jobId: event.data.jobId,
          summary: event.data.summary,
          expiresAt: event.data.expiresAt,
          savedAt: event.data.at,
        };
        doc.packingJobId = null;
        break;
      case 'ProjectPackEnded':
        doc.packingJobId = null;
        break;
      default:
        return;
    }
    await projects.put(doc);
  },
};
