/**
 * The service's Prometheus metrics, one registry per running service (several
 * services can live in one process, as in the tests; the global registry would clash). Nothing
 * here carries an organization id, a key or a URL.
 *
 * - `packing_http_request_duration_seconds{method,route,status}`: histogram of answered requests
 *   (its `_count` is the requests by route and status); `route` is the route pattern
 *   (`/v1/jobs/:id`) or `unmatched`.
 * - `packing_jobs{status}`: jobs in the read model per status, counted at scrape time.
 * - `packing_queue_depth`: queued jobs, at scrape time.
 * - `packing_compute_seconds_total`: compute time of the jobs that ended since this process
 *   started (JobSucceeded / JobFailed `computeMs` as the read models apply them).
 * - `packing_jobs_ended_total{outcome}`: jobs that ended since this process started, by outcome
 *   (`succeeded` or the JobFailed code). The solver's candidate count is in no event (it stays in
 *   the solver's SolveOutcome), so it is not exposed.
 * - `packing_event_store_head_position`, `packing_read_model_position`,
 *   `packing_projection_lag_events` (head − read-model position), at scrape time.
 * - prom-client's default process metrics (`process_*`, `nodejs_*`): memory, CPU, event loop.
 */
import type { RequestHandler } from 'express';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { JobStatus } from '../../domain/job/job.js';
import { JOBS, type JobDocument } from '../../projections/jobs/job-document.js';
import { routePattern } from './route-pattern.js';
import type { UseCasePorts } from '../../application/ports.js';

/** What the metrics read: the jobs read model, the log's head and how far the read models are. */
export type MetricsPorts = Pick<UseCasePorts, 'store' | 'reads' | 'projections'>;

const JOB_STATUSES: readonly JobStatus[] = ['queued', 'running', 'succeeded', 'failed', 'canceled'];

/** Latency buckets of the HTTP histogram, seconds. */
export const HTTP_BUCKETS_SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** The metrics of one running service. */
export class ServiceMetrics {
  /** The registry `GET /metrics` serves (its `contentType` is the Prometheus text format). */
  readonly registry = new Registry();
  private readonly httpDuration: Histogram<'method' | 'route' | 'status'>;

  constructor(ctx: MetricsPorts) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.httpDuration = new Histogram({
      name: 'packing_http_request_duration_seconds',
      help: 'Time from receiving a request to finishing its answer, seconds, by method, route pattern and status',
      labelNames: ['method', 'route', 'status'],
      buckets: HTTP_BUCKETS_SECONDS,
      registers,
    });
    const jobs = ctx.reads.collection<JobDocument>(JOBS);
    new Gauge({
      name: 'packing_jobs',
      help: 'Jobs in the read model by status',
      labelNames: ['status'],
      registers,
      async collect() {
        const counts = await Promise.all(JOB_STATUSES.map((status) => jobs.count({ where: { status } })));
        JOB_STATUSES.forEach((status, i) => this.set({ status }, counts[i]!));
      },
    });
    new Gauge({
      name: 'packing_queue_depth',
      help: 'Jobs queued for compute',
      registers,
      async collect() {
        this.set(await jobs.count({ where: { status: 'queued' } }));
      },
    });
    const computeSeconds = new Counter({
      name: 'packing_compute_seconds_total',
      help: 'Compute time of the jobs that ended since this process started, seconds',
      registers,
    });
    const ended = new Counter({
      name: 'packing_jobs_ended_total',
      help: 'Jobs that ended since this process started, by outcome (succeeded or the failure code)',
      labelNames: ['outcome'],
      registers,
    });
    ctx.projections.onApplied((event) => {
      if (event.type !== 'JobSucceeded' && event.type !== 'JobFailed') return;
      const data = event.data as { computeMs?: number; code?: string };
      if (typeof data.computeMs === 'number' && data.computeMs > 0) computeSeconds.inc(data.computeMs / 1000);
      ended.inc({ outcome: event.type === 'JobSucceeded' ? 'succeeded' : (data.code ?? 'failed') });
    });
    new Gauge({
      name: 'packing_event_store_head_position',
      help: 'Global position of the last event in the event store',
      registers,
      async collect() {
        this.set(await ctx.store.headPosition());
      },
    });
    new Gauge({
      name: 'packing_read_model_position',
      help: 'Global event position the read models of this process include',
      registers,
      collect() {
        this.set(ctx.projections.position);
      },
    });
    new Gauge({
      name: 'packing_projection_lag_events',
      help: 'Events stored but not yet in the read models of this process (head - read-model position)',
      registers,
      async collect() {
        const head = await ctx.store.headPosition();
        this.set(Math.max(0, head - ctx.projections.position));
      },
    });
  }

  /**
   * Middleware: observes every answered request in the HTTP histogram once it is finished. The
   * labelled series of each (method, route, status) is looked up once and kept: a request costs
   * one `close` listener, one map lookup and one observation.
   */
  httpMiddleware(): RequestHandler {
    const series = new Map<string, { observe(seconds: number): void }>();
    const seriesOf = (method: string, route: string, status: number) => {
      const key = `${method} ${status} ${route}`;
      let observer = series.get(key);
      if (!observer) {
        observer = this.httpDuration.labels({ method, route, status: String(status) });
        series.set(key, observer);
      }
      return observer;
    };
    return (req, res, next) => {
      const started = performance.now();
      res.on('close', () => {
        if (!res.writableFinished) return;
        seriesOf(req.method, routePattern(req), res.statusCode).observe((performance.now() - started) / 1000);
      });
      next();
    };
  }
}

const perService = new WeakMap<object, ServiceMetrics>();

/** The metrics of a running service (one registry per services object, made on first use). */
export function metricsOf(ctx: MetricsPorts): ServiceMetrics {
  let metrics = perService.get(ctx);
  if (!metrics) {
    metrics = new ServiceMetrics(ctx);
    perService.set(ctx, metrics);
  }
  return metrics;
}
