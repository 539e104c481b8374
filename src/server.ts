/**
 * The composition root: builds the services (scene workers, renderer, rate
 * limits) over a store and settings, and mounts the transports on one
 * Fastify server: the REST API (src/http), the web app and public pages
 * (src/web), the hosted MCP endpoint (src/mcp) and the OAuth authorization
 * server's endpoints (src/oauth). Nothing else imports the
 * transports; they meet only here.
 */
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { AppDeps, SceneWorkers, ServiceDeps } from './app/deps.ts';
import { PREPARED_READS_BYTES, PreparedReads } from './app/diagrams/prepared-reads.ts';
import { authorizationServerOnFirstUse } from './app/oauth/authorization-server.ts';
import { answerClientError, answerFrameworkError, clientLeft, incompleteRequest, toApiError } from './edge/errors.ts';
import { loggerOptions } from './edge/logging.ts';
import { Metrics } from './edge/metrics.ts';
import { metricsWanted, serveMetrics } from './edge/metrics-endpoint.ts';
import { pageRequestLimit } from './edge/page-limits.ts';
import { serveRoutes } from './edge/serve-route.ts';
import { BODY_LIMIT_BYTES } from './edge/validate.ts';
import { ApiError } from './errors.ts';
import { apiPlugin } from './http/api.ts';
import { mcpRoutes } from './mcp/endpoint.ts';
import { authorizationRoutes } from './oauth/authorization-routes.ts';
import { Renderer } from './render/renderer.ts';
import { webAssetsPlugin } from './web/assets.ts';
import { frontDoorFilesPlugin } from './web/front-door/static-files.ts';
import { createMailer } from './mail/mailer.ts';
import { publicImagePlugin } from './web/public-image.ts';
import { publicPagePlugin } from './web/public-page.ts';
import { webAppPlugin } from './web/web-app.ts';
import { FairShare } from './workers/fair-share.ts';
import { WorkerPool } from './workers/pool.ts';
import type { SceneJob, SceneOutput } from './workers/scene-worker.ts';
import { SCENE_HEAP_MB, SCENE_TIMEOUT_MS } from './workers/scene-limits.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The render service (main.ts warms it; tests reach its worker processes). */
    renderer: Renderer;
  }
}

/** TRUST_PROXY as a hop count: the nearest `hops` proxies are believed about the client's address. */
function hopsTrusted(hops: number) {
  return (_address: string, hop: number) => hop < hops;
}

/** Scene workers run at this nice level: below the server, above renders (10). */
const SCENE_NICE = 5;
/** Scene worker jobs (layout, lint, patch, edit) one caller may have running at once; the rest wait their turn. */
const SCENE_JOBS_PER_CALLER = 2;
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export interface BuildOptions {
  /** Fastify/pino logger settings; defaults to JSON logs at the configured level. */
  logger?: FastifyServerOptions['logger'];
}

/** Builds the whole server over the given store and settings; the caller listens. */
export async function buildServer(deps: AppDeps, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ?? loggerOptions(deps.config.logLevel),
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: typeof deps.config.trustProxy === 'number' ? hopsTrusted(deps.config.trustProxy) : deps.config.trustProxy,
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    },
    // Prototype-poisoning keys are refused with PROTO_KEY by checkPayloadShape, with a clearer answer.
    onProtoPoisoning: 'ignore',
    onConstructorPoisoning: 'ignore',
    routerOptions: { ignoreTrailingSlash: true },
    // What is refused before any route or error handler runs answers in the envelope too.
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
  });
  const scenePool = new WorkerPool<SceneJob, SceneOutput>(new URL('./workers/scene-worker.ts', import.meta.url), {
    size: deps.config.sceneWorkers,
    idleMs: deps.config.workerIdleMs,
    timeoutMs: SCENE_TIMEOUT_MS,
    heapLimitMb: SCENE_HEAP_MB,
    // Processes, not threads: a job's memory goes back to the system when its worker is replaced, and a runaway
    // never shares the server's heap; at a lower priority than the server, so small requests stay fast.
    kind: 'process',
    nice: SCENE_NICE,
  });
  // Each caller has a share of the scene workers: one caller's burst of layouts or patches queues behind itself.
  const sceneShare = new FairShare(SCENE_JOBS_PER_CALLER);
  const scenes: SceneWorkers = { run: (job, caller) => sceneShare.run(caller, () => scenePool.run(job)) };
  const { config } = deps;
  // One registry per server (tests build several in one process); none at all unless the settings serve it.
  const metrics = metricsWanted(config) ? new Metrics() : undefined;
  const renderer = new Renderer({
    faithful: config.renderFaithful,
    workers: config.renderWorkers,
    fastWorkers: config.fastWorkers,
    timeoutMs: config.renderTimeoutMs,
    idleMs: config.workerIdleMs,
    dataDirectory: config.dataDir,
    cacheBytes: config.renderCacheBytes,
    log: app.log,
    ...(metrics ? { observer: metrics.renderObserver } : {}),
  });
  metrics?.watch({ store: deps.store, renderer, scenePool: () => ({ pool: scenePool.stats(), fairShareWaiting: sceneShare.waiting() }) });
  // One mailer for everything the service sends: account links and invitations.
  const mailer = createMailer(config, app.log, deps.now);
  app.addHook('onClose', () => Promise.all([scenePool.close(), renderer.close(), mailer.close()]));
  app.decorate('renderer', renderer);
  const services: ServiceDeps = { ...deps, scenes, renderer, mailer, reads: new PreparedReads(PREPARED_READS_BYTES) };
  const pageLimit = pageRequestLimit(deps.config, deps.store.rateLimits);

  app.removeAllContentTypeParsers();
  // Every body is JSON, whatever Content-Type a client (curl -d, say) sends; the web app adds form parsing for its pages.
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => {
    const text = body as string;
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      done(new ApiError('invalid_json', 'request body is not valid JSON'), undefined);
    }
  });

  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  // A request asking to upgrade its connection (`Connection: upgrade`) reaches every route, since the WebSocket
  // plugin routes all upgrades; only the live editor's route takes the connection over. Any other route answers
  // as usual, and then the connection, which Node's HTTP server no longer looks after, is closed: left open, it
  // would stay half-open for good and hold up the server's close.
  app.addHook('onResponse', async (request) => {
    // Node's HTTP parser marks such a request `upgrade` (set on every request it reads; not in Node's types).
    if ((request.raw as { upgrade?: boolean }).upgrade === true) request.raw.socket?.destroy();
  });
  if (metrics) serveMetrics(app, metrics, config);

  app.setErrorHandler((error, request, reply) => {
    if (clientLeft(error, request)) {
      request.log.info('the client left before its request arrived in full');
      return reply.code(400).send(incompleteRequest().toBody());
    }
    const apiError = toApiError(error);
    if (apiError.code === 'internal_error') request.log.error({ err: error }, 'unhandled error');
    else if (apiError.code === 'upstream_unavailable') request.log.warn({ err: error }, 'database unreachable');
    reply.code(apiError.status).headers(apiError.headers).send(apiError.toBody());
  });

  app.setNotFoundHandler((_request, reply) => {
    reply.code(404).send(new ApiError('not_found').toBody());
  });

  const authorizationServer = authorizationServerOnFirstUse(deps);

  await app.register(apiPlugin, { deps: services });
  await app.register(webAssetsPlugin);
  await app.register(frontDoorFilesPlugin);
  await app.register(publicPagePlugin, { deps: services, pageLimit });
  await app.register(publicImagePlugin, { deps: services, pageLimit });
  await app.register(webAppPlugin, { deps: services, pageLimit, authorizationServer });
  // Its token is checked by the API plugin's hook, as every route's with a token access.
  await app.register(async (mcp) => serveRoutes(mcp, mcpRoutes, services, (request) => request.actor));
  await app.register(authorizationRoutes, { deps, authorizationServer });
  return app;
}
