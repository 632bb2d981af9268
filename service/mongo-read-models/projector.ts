/**
 * The projector role's writer of the MongoDB read models: see service/mongo-read-models.ts.
 */
import { ReadModelGenerations, type ActiveStamp, type BuildStamp } from '../../adapters/mongodb/generations.js';
import type { MongoReadStore } from '../../adapters/mongodb/read-store.js';
import type { EventStore } from '../../domain/ports/event-store.js';
import { AppliedPosition } from '../../projections/applied-position.js';
import { PROJECTIONS } from '../../projections/all.js';
import type { ReadModelProgress } from '../../projections/progress.js';
import { ProjectionRunner } from '../../projections/runner.js';
import { ensureIndexes, generationSettings, watchStamp, type GenerationOptions } from './generation-stamp.js';

/**
 * The projector of the MongoDB read models (role `projector`): a ProjectionRunner on the
 * active generation, or first on a fresh one when the stamp names another version (see the
 * module comment). Its position only moves forward across generations.
 */
export class MongoProjector extends AppliedPosition implements ReadModelProgress {
  private readonly options: ReturnType<typeof generationSettings>;
  private readonly generations: ReadModelGenerations;
  private runner: ProjectionRunner | undefined;
  private offApplied: (() => void) | undefined;
  private stopWatch: (() => Promise<void>) | undefined;
  private resumedAt = 0;
  private started = false;
  private retiredFor = '';
  private ignored = -1;

  constructor(
    store: EventStore,
    private readonly reads: MongoReadStore,
    options: GenerationOptions = {},
  ) {
    super(store);
    this.options = generationSettings(options);
    this.generations = new ReadModelGenerations(reads.client.db(reads.database));
  }

  override get resumedFrom(): number {
    return this.resumedAt;
  }

  /** Generation this projector writes. */
  get generation(): number {
    return this.reads.generation;
  }

  /**
   * Resolves once the active generation of this version includes the log's head (after a
   * rebuild and its switch when one was needed). Throws the driver's and the store's errors.
   */
  async catchUp(): Promise<void> {
    const { version, retireAfterMs, log } = this.options;
    const active = (await this.generations.active()) ?? (await this.generations.stampEmpty(version));
    if (active.version === version) {
      await this.runOn(active.generation);
    } else {
      const build = await this.generations.claimBuild(version, true);
      log?.info(
        { from: active.generation, fromVersion: active.version, generation: build.generation, version },
        'read models of another version: rebuilding them from the event log into a fresh generation',
      );
      await this.runOn(build.generation);
      await this.switchFrom(build, active, retireAfterMs);
    }
    await this.dropRetired();
    this.stopWatch = watchStamp(this.generations, this.options.pollMs, log, (stamp) => this.follow(stamp));
  }

  private async switchFrom(build: BuildStamp, from: ActiveStamp, retireAfterMs: number): Promise<void> {
    const { log, version } = this.options;
    const result = await this.generations.switchTo(build, from, retireAfterMs);
    if (result.switched)
      log?.info(
        { from: from.generation, generation: build.generation, version, position: this.position },
        'read models rebuilt; the new generation is active',
      );
    else await this.follow(result.active);
  }

  /** Starts projecting into `generation` (after stopping the runner of the previous one) and waits for the head. */
  private async runOn(generation: number): Promise<void> {
    await this.stopRunner();
    await ensureIndexes(this.reads, generation);
    const runner = new ProjectionRunner(this.store, this.reads.atGeneration(generation), [...PROJECTIONS]);
    this.runner = runner;
    this.offApplied = runner.onApplied((event) => {
      if (event.position > this.position) this.advance(event);
    });
    await runner.catchUp();
    if (!this.started) {
      this.started = true;
      this.resumedAt = runner.resumedFrom;
    }
    this.reads.use(generation);
  }

  private async stopRunner(): Promise<void> {
    this.offApplied?.();
    await this.runner?.stop();
    this.runner = undefined;
  }

  /** A stamp read: follows a switch to another generation of this version; retires after the grace. */
  private async follow(stamp: ActiveStamp): Promise<void> {
    const { log, version } = this.options;
    if (stamp.version !== version) {
      if (this.ignored !== stamp.generation) {
        this.ignored = stamp.generation;
        log?.warn(
          { generation: stamp.generation, storedVersion: stamp.version, writing: this.generation, version },
          'read models of another version are active; this projector keeps writing its generation for processes of its version until it is replaced',
        );
      }
      return;
    }
    if (stamp.generation !== this.generation) {
      const from = this.generation;
      await this.runOn(stamp.generation);
      log?.info(
        { from, generation: stamp.generation, version, position: this.position },
        "projecting into the read models' new generation",
      );
    }
    if (
      stamp.previous &&
      this.retiredFor !== stamp.previous.retireAt &&
      Date.parse(stamp.previous.retireAt) <= Date.now()
    ) {
      this.retiredFor = stamp.previous.retireAt;
      await this.dropRetired();
    }
  }

  private async dropRetired(): Promise<void> {
    const dropped = await this.generations.dropRetired();
    if (dropped.length > 0)
      this.options.log?.info(
        { dropped, generation: this.generation },
        'dropped the collections of retired read-model generations',
      );
  }

  async stop(): Promise<void> {
    await this.stopWatch?.();
    await this.stopRunner();
  }
}
