/**
 * The state of the engines this process depends on (docs/operations.md, "When an engine is down"): the event
 * store, the read store and the bus, each `up` or `down since <RFC 3339>`. Fed by the watching
 * decorators around the store ports (adapters/health/watched-stores.ts) and by the NATS bus's status reports;
 * read by `GET /health` (api/http/routes/health.ts) and by the heartbeat file of processes without
 * HTTP (service/heartbeat.ts).
 *
 * A dependency a role needs that has been down longer than the grace period makes the process
 * `down` (`/health` 503, heartbeat no longer refreshed); a shorter outage, or one of a dependency
 * no role of the process needs to work, makes it `degraded` (still 200). What each role needs:
 * - api: the read store (it answers reads from the read models; with the event store down its
 *   writes answer 503 api_disabled with Retry-After, but it stays in the load balancer);
 * - projector: the event store and the read store;
 * - scheduler: the event store, the read store and the bus;
 * - solver: the event store and the bus.
 */
import type { Logger } from 'pino';
import type { Role } from '../../domain/process-profile.js';

/** One engine the process depends on. */
export type Dependency = 'event_store' | 'read_store' | 'bus';

/** Every dependency, in the order reports list them. */
export const DEPENDENCIES: readonly Dependency[] = ['event_store', 'read_store', 'bus'];

/** Default time a needed dependency may be down before the process reports itself down, ms (DEPENDENCY_GRACE_MS). */
export const DEFAULT_DEPENDENCY_GRACE_MS = 60_000;

/** `Retry-After` (s) of a request refused because a dependency failed: about one probe interval and a retry. */
export const DEPENDENCY_RETRY_AFTER_SECONDS = 5;

/** Overall state: every dependency up; some down but serving; a needed one down past the grace period. */
export type HealthStatus = 'ok' | 'degraded' | 'down';

/** What `/health` and the heartbeat file tell: the overall state and each dependency's (`up` or `down since <RFC 3339>`). */
export interface HealthReport {
  status: HealthStatus;
  dependencies: Partial<Record<Dependency, string>>;
}

/** A state change of one dependency, as the bus reports it (`since`: RFC 3339). */
export interface DependencyStatus {
  state: 'up' | 'down';
  since: string;
  reason?: string;
}

/** The dependencies each role needs to do its work (see the module comment). */
const NEEDED_BY_ROLE: Readonly<Record<Role, readonly Dependency[]>> = {
  api: ['read_store'],
  projector: ['event_store', 'read_store'],
  scheduler: ['event_store', 'read_store', 'bus'],
  solver: ['event_store', 'bus'],
};

/** The dependencies the roles need, together. */
export function neededBy(roles: Iterable<Role>): Set<Dependency> {
  const needed = new Set<Dependency>();
  for (const role of roles) for (const d of NEEDED_BY_ROLE[role]) needed.add(d);
  return needed;
}

/** Options of {@link DependencyHealth}. */
export interface DependencyHealthOptions {
  /** The dependencies this process uses (reports list only these). */
  used: Iterable<Dependency>;
  /** The dependencies its roles need (a subset of `used`; see neededBy). */
  needed: Iterable<Dependency>;
  /** Grace period, ms (default DEFAULT_DEPENDENCY_GRACE_MS). */
  graceMs?: number;
  /** Now, ms since the epoch (tests move it). Default Date.now. */
  now?: () => number;
  /** Gets one line per state change (warn when down, info when up again). */
  log?: Pick<Logger, 'warn' | 'info'>;
}

interface Down {
  since: number;
  reason: string;
}

/**
 * Each dependency's state, changed by `markDown` / `markUp` / `report`. A dependency starts `up`
 * (the adapters opened, so it answered a moment ago).
 */
export class DependencyHealth {
  readonly graceMs: number;
  private readonly used: readonly Dependency[];
  private readonly needed: ReadonlySet<Dependency>;
  private readonly now: () => number;
  private readonly log: Pick<Logger, 'warn' | 'info'> | undefined;
  private readonly down = new Map<Dependency, Down>();
  private readonly listeners = new Set<(dependency: Dependency, state: 'up' | 'down') => void>();

  constructor(options: DependencyHealthOptions) {
    const used = new Set(options.used);
    this.used = DEPENDENCIES.filter((d) => used.has(d));
    this.needed = new Set([...options.needed].filter((d) => used.has(d)));
    this.graceMs = options.graceMs ?? DEFAULT_DEPENDENCY_GRACE_MS;
    this.now = options.now ?? Date.now;
    this.log = options.log;
  }

  /** Marks `dependency` down since `since` (ms; default now) unless it is down already (the first failure is kept). */
  markDown(dependency: Dependency, reason: string, since = this.now()): void {
    if (this.down.has(dependency)) return;
    this.down.set(dependency, { since, reason });
    this.log?.warn({ dependency, since: new Date(since).toISOString(), reason }, 'dependency down');
    for (const listener of this.listeners) listener(dependency, 'down');
  }

  /** Marks `dependency` up (nothing when it is up). */
  markUp(dependency: Dependency): void {
    const was = this.down.get(dependency);
    if (!was) return;
    this.down.delete(dependency);
    this.log?.info({ dependency, downMs: this.now() - was.since }, 'dependency up again');
    for (const listener of this.listeners) listener(dependency, 'up');
  }

  /** Applies a status report of the bus (adapters/nats/bus.ts `onStatus`). */
  busStatus(status: DependencyStatus): void {
    if (status.state === 'up') this.markUp('bus');
    else this.markDown('bus', status.reason ?? 'disconnected', Date.parse(status.since) || this.now());
  }

  /** Whether `dependency` is down now. */
  isDown(dependency: Dependency): boolean {
    return this.down.has(dependency);
  }

  /** How long `dependency` has been down, ms; 0 when it is up. */
  downForMs(dependency: Dependency): number {
    const down = this.down.get(dependency);
    return down ? Math.max(0, this.now() - down.since) : 0;
  }

  /** Calls `listener` on every state change; returns the unsubscribe. */
  onChange(listener: (dependency: Dependency, state: 'up' | 'down') => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The report now: `down` once a needed dependency has been down longer than the grace period. */
  report(): HealthReport {
    const now = this.now();
    const dependencies: Partial<Record<Dependency, string>> = {};
    let status: HealthStatus = 'ok';
    for (const d of this.used) {
      const down = this.down.get(d);
      if (!down) {
        dependencies[d] = 'up';
        continue;
      }
      dependencies[d] = `down since ${new Date(down.since).toISOString()}`;
      if (this.needed.has(d) && now - down.since > this.graceMs) status = 'down';
      else if (status === 'ok') status = 'degraded';
    }
    return { status, dependencies };
  }
}

/** Errors the watching decorators saw come from a failing dependency, and which one. */
const failures = new WeakMap<object, Dependency>();

/** Records that `err` is `dependency` failing (the error middleware answers it with 503). */
export function noteDependencyFailure(err: unknown, dependency: Dependency): void {
  if (typeof err === 'object' && err !== null) failures.set(err, dependency);
}

/** The dependency whose failure `err` is (or wraps, through `cause`), else undefined. */
export function failedDependencyOf(err: unknown): Dependency | undefined {
  for (
    let e = err, depth = 0;
    typeof e === 'object' && e !== null && depth < 8;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    const dependency = failures.get(e);
    if (dependency) return dependency;
  }
  return undefined;
}
