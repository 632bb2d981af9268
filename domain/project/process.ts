// STUB, to be written with the projects capability: saves a project job's plan into its project.
import type { EventStore, RecordedEvent } from '../ports/event-store.js';

export interface ProjectProcessDeps {
  store: EventStore;
  clock: () => string;
}

export class ProjectProcess {
  constructor(private readonly deps: ProjectProcessDeps) {}

  /** Reacts to one stored event (called in log order). */
  async react(event: RecordedEvent): Promise<void> {
    void this.deps;
    void event;
  }
}
