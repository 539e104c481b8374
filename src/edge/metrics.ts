/**
 * The service's Prometheus series (docs/operations.md, "Metrics"), in one
 * registry per server: HTTP requests as Fastify answers them, render jobs as
 * the renderer reports them, and, read when scraped, the worker pools, the
 * render cache, the database and the rate-limit refusals. Nothing here changes
 * what it watches; the domain knows nothing of it.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { RenderObserver, RenderOutcome, RenderPoolLoad } from '../render/renderer.ts';
import type { RenderFormat, RenderQuality } from '../render/types.ts';
import type { Store } from '../store/store.ts';

/** What the scrape reads: the store's usage and refusals, the render pools and cache, the scene pool. */
export interface MetricsSources {
  store: Pick<Store, 'engine' | 'usage' | 'rateLimits'>;
  renderer: { poolLoad(): Partial<Record<RenderQuality, RenderPoolLoad>>; cacheBytes(): number };
  scenePool(): RenderPoolLoad;
}

/** The route label of a request that matched no route: one value, whatever the path. */
const UNMATCHED_ROUTE = 'unmatched';
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** Seconds: from a quick read to a render at its timeout. */
const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** Seconds a render job waits for a worker, or takes in one: a fast SVG to a faithful PDF near the timeout. */
const RENDER_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15, 30];

const RENDER_QUALITIES: RenderQuality[] = ['faithful', 'fast'];
const RENDER_FORMATS: RenderFormat[] = ['json', 'svg', 'png', 'pdf'];
const RENDER_OUTCOMES: RenderOutcome[] = ['ok', 'cached', 'fallback', 'timeout', 'error'];

export class Metrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly requestSeconds: Histogram<'method' | 'route'>;
  private readonly renders: Counter<'quality' | 'format' | 'outcome'>;
  private readonly renderQueueSeconds: Histogram<'quality'>;
  private readonly renderRunSeconds: Histogram<'quality'>;
  private readonly cacheLookups: Counter<'result'>;

  constructor() {
    const registers = [this.registry];
    // Event-loop lag, heap and resident memory, CPU, handles, GC: prom-client's process series.
    collectDefaultMetrics({ register: this.registry });
    this.requests = new Counter({
      name: 'drawbridge_http_requests_total',
      help: 'HTTP requests answered, by method, route pattern and status.',
      labelNames: ['method', 'route', 'status'],
      registers,
    });
    this.requestSeconds = new Histogram({
      name: 'drawbridge_http_request_duration_seconds',
      help: 'Time from a request arriving to its answer being sent, by method and route pattern.',
      labelNames: ['method', 'route'],
      buckets: REQUEST_BUCKETS,
      registers,
    });
    this.renders = new Counter({
      name: 'drawbridge_render_jobs_total',
      help: 'Renders of a non-empty scene, by quality and format asked for and outcome (ok, cached, fallback, timeout, error).',
      labelNames: ['quality', 'format', 'outcome'],
      registers,
    });
    this.renderQueueSeconds = new Histogram({
      name: 'drawbridge_render_queue_duration_seconds',
      help: 'Time a render job waited for a worker (its caller\'s fair share, then the pool\'s queue), by the renderer that ran it.',
      labelNames: ['quality'],
      buckets: RENDER_BUCKETS,
      registers,
    });
    this.renderRunSeconds = new Histogram({
      name: 'drawbridge_render_run_duration_seconds',
      help: 'Time a render worker spent on a job, answered or failed, by renderer.',
      labelNames: ['quality'],
      buckets: RENDER_BUCKETS,
      registers,
    });
    this.cacheLookups = new Counter({
      name: 'drawbridge_render_cache_lookups_total',
      help: 'Render cache lookups, one per image part asked for, by result (hit or miss).',
      labelNames: ['result'],
      registers,
    });
    // Every series starts at 0, so that a rate over the first event is not lost.
    for (const quality of RENDER_QUALITIES) {
      for (const format of RENDER_FORMATS) for (const outcome of RENDER_OUTCOMES) this.renders.inc({ quality, format, outcome }, 0);
    }
    for (const result of ['hit', 'miss']) this.cacheLookups.inc({ result }, 0);
  }

  /** What the renderer tells as it works. */
  readonly renderObserver: RenderObserver = {
    rendered: (quality, format, outcome) => this.renders.inc({ quality, format, outcome }),
    queued: (quality, seconds) => this.renderQueueSeconds.observe({ quality }, seconds),
    ran: (quality, seconds) => this.renderRunSeconds.observe({ quality }, seconds),
    cacheLookup: (hit) => this.cacheLookups.inc({ result: hit ? 'hit' : 'miss' }),
  };

  /** Adds the series read from the services when scraped (once, when they exist). */
  watch(sources: MetricsSources): void {
    const registers = [this.registry];
    const { store, renderer } = sources;
    const pools = (): Array<[string, RenderPoolLoad]> => {
      const render = renderer.poolLoad();
      const named: Array<[string, RenderPoolLoad | undefined]> = [['scene', sources.scenePool()], ['faithful', render.faithful], ['fast', render.fast]];
      return named.filter((entry): entry is [string, RenderPoolLoad] => entry[1] !== undefined);
    };
    new Gauge({
      name: 'drawbridge_worker_pool_workers',
      help: 'Workers of each pool (scene, faithful, fast) by state: starting, idle or busy.',
      labelNames: ['pool', 'state'],
      registers,
      collect() {
        this.reset();
        for (const [pool, load] of pools()) for (const state of ['starting', 'idle', 'busy'] as const) this.set({ pool, state }, load.pool[state]);
      },
    });
    new Gauge({
      name: 'drawbridge_worker_pool_max_workers',
      help: 'The most workers each pool runs at once.',
      labelNames: ['pool'],
      registers,
      collect() {
        this.reset();
        for (const [pool, load] of pools()) this.set({ pool }, load.pool.size);
      },
    });
    new Gauge({
      name: 'drawbridge_worker_pool_queued_jobs',
      help: 'Jobs waiting, by pool and queue: for a worker (worker), or behind their own caller\'s earlier jobs (fair_share).',
      labelNames: ['pool', 'queue'],
      registers,
      collect() {
        this.reset();
        for (const [pool, load] of pools()) {
          this.set({ pool, queue: 'worker' }, load.pool.queued);
          this.set({ pool, queue: 'fair_share' }, load.fairShareWaiting);
        }
      },
    });
    // Counts kept by the pools and the store, exposed as counters: each scrape sets them to the running totals.
    new Counter({
      name: 'drawbridge_worker_pool_restarts_total',
      help: 'Workers replaced, by pool and reason: timeout, crashed, start (never became ready) or heap (grew past its bound).',
      labelNames: ['pool', 'reason'],
      registers,
      collect() {
        this.reset();
        for (const [pool, load] of pools()) for (const [reason, count] of Object.entries(load.pool.replaced)) this.inc({ pool, reason }, count);
      },
    });
    new Gauge({
      name: 'drawbridge_render_cache_bytes',
      help: 'Bytes the render cache holds on disk (bounded by RENDER_CACHE_MB).',
      registers,
      collect() {
        this.set(renderer.cacheBytes());
      },
    });
    new Counter({
      name: 'drawbridge_rate_limit_rejections_total',
      help: 'Requests refused by a rate limit, by limit (the budget\'s name).',
      labelNames: ['limit'],
      registers,
      collect() {
        this.reset();
        for (const [limit, count] of Object.entries(store.rateLimits.rejections())) this.inc({ limit }, count);
      },
    });
    new Counter({
      name: 'drawbridge_db_queries_total',
      help: 'Database queries run, answered or failed, by engine (sqlite, postgres).',
      labelNames: ['engine'],
      registers,
      collect() {
        this.reset();
        this.inc({ engine: store.engine }, store.usage().queries);
      },
    });
    new Counter({
      name: 'drawbridge_db_errors_total',
      help: 'Database failures, by engine and kind: busy (locked, deadlock, serialization conflict), connection, constraint, other.',
      labelNames: ['engine', 'kind'],
      registers,
      collect() {
        this.reset();
        for (const [kind, count] of Object.entries(store.usage().errors)) this.inc({ engine: store.engine, kind }, count);
      },
    });
    // A connection pool is PostgreSQL's only: SQLite has one connection, and no such series.
    if (!store.usage().pool) return;
    const pool = () => store.usage().pool!;
    new Gauge({
      name: 'drawbridge_db_pool_connections',
      help: 'Connections of the PostgreSQL pool, by state: idle or busy.',
      labelNames: ['state'],
      registers,
      collect() {
        const { idle, total } = pool();
        this.set({ state: 'idle' }, idle);
        this.set({ state: 'busy' }, total - idle);
      },
    });
    new Gauge({
      name: 'drawbridge_db_pool_max_connections',
      help: 'The most connections the PostgreSQL pool opens.',
      registers,
      collect() {
        this.set(pool().max);
      },
    });
    new Gauge({
      name: 'drawbridge_db_pool_waiting_requests',
      help: 'Queries waiting for a free connection of the PostgreSQL pool.',
      registers,
      collect() {
        this.set(pool().waiting);
      },
    });
  }

  /** A Fastify onResponse hook: counts the request under its route pattern (never its URL) and times it. */
  readonly requestAnswered = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const method = METHODS.has(request.method) ? request.method : 'other';
    const route = request.routeOptions.url ?? UNMATCHED_ROUTE;
    this.requests.inc({ method, route, status: String(reply.statusCode) });
    this.requestSeconds.observe({ method, route }, reply.elapsedTime / 1000);
  };

  /** The Prometheus text of every series. */
  exposition(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
