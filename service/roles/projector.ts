/**
 * The projector role, and the read models of every role that reads them (DESIGN §3): brings the
 * read models chosen for this process (service/read-model-runner.ts) up to the log's head before
 * the process serves, logging how far it replayed, and keeps them following the log until the
 * stop. A process that neither writes nor reads them does nothing here.
 */
import type { Logger } from 'pino';
import type { Profile } from '../profile.js';
import type { ReadModelRunner } from '../read-model-runner.js';

/**
 * Starts following the MongoDB generations (followers), then catches the read models up with
 * the log. Adds each stop to `stops` as soon as its part runs (the caller runs them in reverse,
 * also when a later part fails). Throws the stores' errors.
 */
export async function startReadModels(
  runner: ReadModelRunner,
  profile: Profile,
  log: Logger,
  stops: (() => Promise<void> | void)[],
): Promise<void> {
  if (runner.followGenerations) stops.push(await runner.followGenerations());
  if (!runner.writes && !runner.reads) return;
  const { projections } = runner;
  const started = Date.now();
  await projections.catchUp();
  const { position, resumedFrom } = projections;
  log.info(
    {
      position,
      resumedFrom,
      replayed: position - resumedFrom,
      ms: Date.now() - started,
      writer: runner.writes,
      readStore: profile.readStore.kind,
    },
    'read models caught up with the event log',
  );
  stops.push(() => projections.stop());
}
