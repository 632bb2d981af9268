/**
 * Documents of the small, hot read models held in this process's memory: what every `/v1`
 * request reads before its route runs (the maintenance switch, the API key or the web app
 * session, its organization, the balance behind `X-Credits-Remaining`), and the job documents
 * GET /v1/jobs/{id} reads. A document is read from the read store once and served from memory
 * until the read models apply an event that may change it.
 *
 * Kept right by the log, never by a timer: the cache listens to `ReadModelProgress.onApplied`
 * (projections/progress.ts), which tells of an event once the read models include it (the
 * ProjectionRunner after its batch is stored, the CheckpointFollower once the shared
 * checkpoints passed it), and drops the entries the event's stream folds into:
 *
 * | stream                 | projection        | entries dropped                                  |
 * |------------------------|-------------------|--------------------------------------------------|
 * | `service-settings`     | service-settings  | the service settings document                    |
 * | `org-<orgId>`          | organizations     | that organization, and every API key of it       |
 * | `ledger-<orgId>`       | balances          | that organization's balance                      |
 * | `session-<sessionId>`  | sessions          | that web app session                             |
 * | `credential-…`         | sessions          | every session (a new password ends sessions)     |
 * | any event naming a job | jobs              | that job (`job-<id>` events, the ledger's        |
 * | (`data.jobId`)         |                   | JobStarted and JobSettled)                       |
 *
 * Besides documents, `jobsVersion(orgId)` counts the events that may have changed a job of an
 * organization, so what is made from many of its jobs at once (a page of GET /v1/jobs,
 * api/http/jobs/job-list-answers.ts) can be kept and known stale without reading the jobs.
 *
 * The race of a read that began before an event and resolves after the event's invalidation is
 * closed per entry: each read in flight is registered, an invalidation marks the ones it touches
 * stale and forgets them, and a stale read hands its document to those who waited for it but
 * never stores it (the next read goes to the store). Concurrent reads of one id share one store
 * read.
 *
 * Cached documents are shared by every request: callers must treat them as read-only. They are
 * deep-frozen when filled (`freeze`, on by default; a miss pays it once), so a caller that writes
 * to one throws instead of changing what other requests see.
 */
import type { RecordedEvent } from '../domain/ports/event-store.js';
import type { ReadDocument, ReadStore } from '../domain/ports/read-store.js';
import { orgIdOfStream } from '../domain/organization/streams.js';
import { ledgerOrgId } from '../domain/ledger/streams.js';
import { isServiceSettingsStream } from '../domain/service-settings/streams.js';
import { sessionIdOfStream } from '../domain/session/streams.js';
import { isCredentialStream } from '../domain/credential/streams.js';
import { API_KEYS, ORGANIZATIONS, type ApiKeyDocument, type OrganizationDocument } from './organizations/projection.js';
import { BALANCES, type BalanceDocument } from './balances/projection.js';
import { SERVICE_SETTINGS, SERVICE_SETTINGS_ID, type ServiceSettingsDocument } from './service-settings/projection.js';
import { WEB_SESSIONS, type WebSessionDocument } from './sessions/projection.js';
import { JOBS, type JobDocument } from './jobs/job-document.js';
import type { ReadModelProgress } from './progress.js';

/** Default most entries held per collection (API keys, organizations, balances). */
export const DEFAULT_CACHE_ENTRIES = 10_000;

/**
 * Default most job documents held (about 1.5 KB each in memory: some 30 MB at most). Jobs are
 * many and mostly read soon after they were made (polled while they run, fetched once done):
 * the least recently read go first.
 */
export const DEFAULT_JOB_CACHE_ENTRIES = 20_000;

/** Settings of a ReadModelCache; every field has a default. */
export interface ReadModelCacheOptions {
  /** Most entries per collection; the least recently read go first (default DEFAULT_CACHE_ENTRIES). */
  maxEntries?: number;
  /** Most job documents held; the least recently read go first (default DEFAULT_JOB_CACHE_ENTRIES). */
  maxJobEntries?: number;
  /** Deep-freeze the documents served (default true; tests may turn it off). */
  freeze?: boolean;
}

/** A read of the store in flight; `stale` once an invalidation touched its entry. */
interface Pending<T> {
  stale: boolean;
  readonly result: Promise<T | undefined>;
}

/** Recursively freezes `value` (plain JSON data: objects and arrays). */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/**
 * One collection's cached documents by id, least recently read first (a Map keeps insertion
 * order; a hit moves its entry to the end). `undefined` is held as a known absence when
 * `keepAbsent` (a missing service settings document is the usual state; an unknown API key or
 * session token is not kept, so guesses cannot push real ones out).
 */
class CachedCollection<T extends ReadDocument> {
  private readonly entries = new Map<string, T | null>();
  private readonly reading = new Map<string, Pending<T>>();

  constructor(
    private readonly reads: ReadStore,
    private readonly name: string,
    private readonly maxEntries: number,
    private readonly keepAbsent: boolean,
    private readonly freeze: boolean,
  ) {}

  get(id: string): Promise<T | undefined> {
    const held = this.entries.get(id);
    if (held !== undefined) {
      if (this.entries.size > 1) {
        this.entries.delete(id);
        this.entries.set(id, held);
      }
      return Promise.resolve(held ?? undefined);
    }
    const pending = this.reading.get(id);
    if (pending) return pending.result;
    return this.read(id);
  }

  /**
   * The entry of `id` when it is held, without a read: the document, null for a known absence,
   * undefined when nothing is held (then `get` reads the store). A hit counts as a read unless
   * `touch` is false.
   */
  held(id: string, touch = true): T | null | undefined {
    const held = this.entries.get(id);
    if (touch && held !== undefined && this.entries.size > 1) {
      this.entries.delete(id);
      this.entries.set(id, held);
    }
    return held;
  }

  private read(id: string): Promise<T | undefined> {
    const pending: { stale: boolean; result: Promise<T | undefined> } = {
      stale: false,
      result: this.reads
        .collection<T>(this.name)
        .get(id)
        .then(
          (doc) => {
            if (this.reading.get(id) === pending) this.reading.delete(id);
            if (doc !== undefined && this.freeze) deepFreeze(doc);
            if (!pending.stale && (doc !== undefined || this.keepAbsent)) this.fill(id, doc ?? null);
            return doc;
          },
          (err: unknown) => {
            if (this.reading.get(id) === pending) this.reading.delete(id);
            throw err;
          },
        ),
    };
    this.reading.set(id, pending);
    return pending.result;
  }

  private fill(id: string, doc: T | null): void {
    this.entries.set(id, doc);
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }

  /** Drops the entry of `id`; a read of it in flight will not be stored. */
  invalidate(id: string): void {
    this.entries.delete(id);
    const pending = this.reading.get(id);
    if (pending) {
      pending.stale = true;
      this.reading.delete(id);
    }
  }

  /** Drops the entries whose document `matches`; no read in flight will be stored (their ids are not known yet). */
  invalidateWhere(matches: (doc: T) => boolean): void {
    for (const [id, doc] of this.entries) if (doc === null || matches(doc)) this.entries.delete(id);
    for (const pending of this.reading.values()) pending.stale = true;
    this.reading.clear();
  }

  /** Drops everything. */
  clear(): void {
    this.invalidateWhere(() => true);
  }

  /** How many entries are held. */
  get size(): number {
    return this.entries.size;
  }
}

/**
 * The hot read models of this process, from memory (see the module comment). Reads return the
 * read store's document, or undefined when it has none; the document is shared: read-only.
 */
export class ReadModelCache {
  private readonly settings: CachedCollection<ServiceSettingsDocument>;
  private readonly keys: CachedCollection<ApiKeyDocument>;
  private readonly orgs: CachedCollection<OrganizationDocument>;
  private readonly balances: CachedCollection<BalanceDocument>;
  private readonly sessions: CachedCollection<WebSessionDocument>;
  private readonly jobs: CachedCollection<JobDocument>;
  /** Events naming a job applied so far: the clock of `jobsVersion`. */
  private jobChanges = 0;
  /** Per organization, `jobChanges` when an event naming one of its jobs was last applied. */
  private readonly jobChangesByOrg = new Map<string, number>();
  /** `jobChanges` when an event named a job whose organization is not known here (every version moves). */
  private unknownJobChange = 0;
  /** The organization of each job queued lately (JobQueued names it), the oldest dropped first. */
  private readonly jobOrgs = new Map<string, string>();
  private readonly maxJobOrgs: number;
  private readonly off: () => void;

  /**
   * Listens to `progress` from now on: build it before the read models catch up (or at least
   * before the first read), so no event they apply goes unheard.
   */
  constructor(reads: ReadStore, progress: Pick<ReadModelProgress, 'onApplied'>, options: ReadModelCacheOptions = {}) {
    const max = options.maxEntries ?? DEFAULT_CACHE_ENTRIES;
    const freeze = options.freeze ?? true;
    this.settings = new CachedCollection(reads, SERVICE_SETTINGS, 1, true, freeze);
    this.keys = new CachedCollection(reads, API_KEYS, max, false, freeze);
    this.orgs = new CachedCollection(reads, ORGANIZATIONS, max, true, freeze);
    this.balances = new CachedCollection(reads, BALANCES, max, true, freeze);
    this.sessions = new CachedCollection(reads, WEB_SESSIONS, max, false, freeze);
    // An unknown job id is not kept: guessed ids cannot push real jobs out, and a job read
    // before its JobQueued is applied is read again.
    this.maxJobOrgs = options.maxJobEntries ?? DEFAULT_JOB_CACHE_ENTRIES;
    this.jobs = new CachedCollection(reads, JOBS, this.maxJobOrgs, false, freeze);
    this.off = progress.onApplied((event) => this.applied(event));
  }

  /** The service settings document (maintenance mode), or undefined before the first switch. */
  serviceSettings(): Promise<ServiceSettingsDocument | undefined> {
    return this.settings.get(SERVICE_SETTINGS_ID);
  }

  /**
   * The service settings document when it is held (null: known to be absent), undefined when it
   * must be read (`serviceSettings`): the `/v1` maintenance gate answers without a promise.
   */
  heldServiceSettings(): ServiceSettingsDocument | null | undefined {
    return this.settings.held(SERVICE_SETTINGS_ID);
  }

  /** The API key whose secret hashes (SHA-256 hex) to `hash`. */
  apiKey(hash: string): Promise<ApiKeyDocument | undefined> {
    return this.keys.get(hash);
  }

  /** The organization `orgId`. */
  organization(orgId: string): Promise<OrganizationDocument | undefined> {
    return this.orgs.get(orgId);
  }

  /** The balance of organization `orgId` (micro-credits). */
  balance(orgId: string): Promise<BalanceDocument | undefined> {
    return this.balances.get(orgId);
  }

  /** The web app session whose cookie token hashes (SHA-256 hex) to `tokenHash`. */
  webSession(tokenHash: string): Promise<WebSessionDocument | undefined> {
    return this.sessions.get(tokenHash);
  }

  /** The job document `jobId` (any organization's: the caller checks the owner). */
  job(jobId: string): Promise<JobDocument | undefined> {
    return this.jobs.get(jobId);
  }

  /**
   * A number that changes whenever the read models apply an event that may change a job of
   * organization `orgId` (any event naming a job of it, or naming a job whose organization is
   * not known here): what is made from the organization's jobs (a page of GET /v1/jobs) and
   * stamped with it is still right while it is unchanged. It only grows.
   */
  jobsVersion(orgId: string): number {
    return Math.max(this.jobChangesByOrg.get(orgId) ?? 0, this.unknownJobChange);
  }

  /** Entries held per collection (tests, diagnostics). */
  sizes(): Record<'serviceSettings' | 'apiKeys' | 'organizations' | 'balances' | 'webSessions' | 'jobs', number> {
    return {
      serviceSettings: this.settings.size,
      apiKeys: this.keys.size,
      organizations: this.orgs.size,
      balances: this.balances.size,
      webSessions: this.sessions.size,
      jobs: this.jobs.size,
    };
  }

  /** Drops every entry (e.g. when the read store was moved to another generation of read models). */
  clear(): void {
    this.settings.clear();
    this.keys.clear();
    this.orgs.clear();
    this.balances.clear();
    this.sessions.clear();
    this.jobs.clear();
    this.unknownJobChange = ++this.jobChanges;
  }

  /** Stops listening; reads keep working, but nothing is dropped any more: only for shutdown. */
  stop(): void {
    this.off();
  }

  /**
   * An event naming job `jobId` was applied (`namedOrg`: the job's organization when the event
   * names it, a JobQueued's): drops the job and moves the version of its organization, known from the event,
   * from the JobQueued seen earlier or from the job document held; when none tells, every
   * organization's version moves (a ledger's stream names the ledger's organization, not
   * necessarily the job's).
   */
  private jobChanged(jobId: string, namedOrg: unknown): void {
    let orgId = this.jobOrgs.get(jobId) ?? this.jobs.held(jobId, false)?.orgId;
    if (orgId === undefined && typeof namedOrg === 'string') {
      orgId = namedOrg;
      this.jobOrgs.set(jobId, orgId);
      if (this.jobOrgs.size > this.maxJobOrgs) this.jobOrgs.delete(this.jobOrgs.keys().next().value!);
    }
    this.jobChanges += 1;
    if (orgId === undefined) this.unknownJobChange = this.jobChanges;
    else this.jobChangesByOrg.set(orgId, this.jobChanges);
    this.jobs.invalidate(jobId);
  }

  /** Drops what `event` may have changed, by the stream it was stored in (module comment's table). */
  private applied(event: RecordedEvent): void {
    // The jobs projection folds every event naming a job (its own stream's and the ledger's).
    const data = event.data as { jobId?: unknown; orgId?: unknown } | null;
    if (typeof data?.jobId === 'string')
      this.jobChanged(data.jobId, event.type === 'JobQueued' ? data.orgId : undefined);
    const stream = event.stream;
    const ledgerOf = ledgerOrgId(stream);
    if (ledgerOf !== undefined) return this.balances.invalidate(ledgerOf);
    const orgId = orgIdOfStream(stream);
    if (orgId !== undefined) {
      this.orgs.invalidate(orgId);
      this.keys.invalidateWhere((key) => key.orgId === orgId);
      return;
    }
    const sessionId = sessionIdOfStream(stream);
    if (sessionId !== undefined) {
      // Every session event names the session's token hash (its document's id); should one not, drop by session id.
      const tokenHash = (event.data as { tokenHash?: unknown } | null)?.tokenHash;
      if (typeof tokenHash === 'string') return this.sessions.invalidate(tokenHash);
      return this.sessions.invalidateWhere((s) => s.sessionId === sessionId);
    }
    if (isCredentialStream(stream)) return this.sessions.clear();
    if (isServiceSettingsStream(stream)) this.settings.invalidate(SERVICE_SETTINGS_ID);
  }
}

/**
 * What the HTTP edge reads its hot documents through: the process's ReadModelCache when the
 * composition root made one, else the read store itself (services built by hand in tests).
 */
export interface HotReadPorts {
  reads: ReadStore;
  readCache?: ReadModelCache | undefined;
}

/** The API key whose secret hashes to `hash`, from the cache when there is one. */
export function readApiKey(ctx: HotReadPorts, hash: string): Promise<ApiKeyDocument | undefined> {
  return ctx.readCache ? ctx.readCache.apiKey(hash) : ctx.reads.collection<ApiKeyDocument>(API_KEYS).get(hash);
}

/** The organization `orgId`, from the cache when there is one. */
export function readOrganization(ctx: HotReadPorts, orgId: string): Promise<OrganizationDocument | undefined> {
  return ctx.readCache
    ? ctx.readCache.organization(orgId)
    : ctx.reads.collection<OrganizationDocument>(ORGANIZATIONS).get(orgId);
}

/** The balance of `orgId`, from the cache when there is one. */
export function readBalance(ctx: HotReadPorts, orgId: string): Promise<BalanceDocument | undefined> {
  return ctx.readCache ? ctx.readCache.balance(orgId) : ctx.reads.collection<BalanceDocument>(BALANCES).get(orgId);
}

/** The web app session of the cookie token hashing to `tokenHash`, from the cache when there is one. */
export function readWebSession(ctx: HotReadPorts, tokenHash: string): Promise<WebSessionDocument | undefined> {
  return ctx.readCache
    ? ctx.readCache.webSession(tokenHash)
    : ctx.reads.collection<WebSessionDocument>(WEB_SESSIONS).get(tokenHash);
}

/** The service settings document, from the cache when there is one. */
export function readServiceSettings(ctx: HotReadPorts): Promise<ServiceSettingsDocument | undefined> {
  return ctx.readCache
    ? ctx.readCache.serviceSettings()
    : ctx.reads.collection<ServiceSettingsDocument>(SERVICE_SETTINGS).get(SERVICE_SETTINGS_ID);
}

/** The job document `jobId` (any organization's), from the cache when there is one. */
export function readJob(ctx: HotReadPorts, jobId: string): Promise<JobDocument | undefined> {
  return ctx.readCache ? ctx.readCache.job(jobId) : ctx.reads.collection<JobDocument>(JOBS).get(jobId);
}
