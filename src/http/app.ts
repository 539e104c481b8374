import { randomUUID } from 'node:crypto';
import os from 'node:os';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { ApiError } from '../errors.ts';
import { webAssetsPlugin } from '../web/assets.ts';
import { pageRequestLimit } from '../web/page-limits.ts';
import { publicPagePlugin } from '../web/public-page.ts';
import { webAppPlugin } from '../web/web-app.ts';
import { Authenticator } from './authenticate.ts';
import { answerClientError, answerFrameworkError, clientLeft, incompleteRequest, requestPath, toApiError } from './errors.ts';
import { mcpEndpoint } from './mcp.ts';
import { RateLimits } from './rate-limit.ts';
import type { AppDeps, RouteConfig, RouteDef, SceneWorkers, ServiceDeps } from './route.ts';
import { Renderer } from '../render/renderer.ts';
import { WorkerPool } from '../workers/pool.ts';
import { FairShare } from '../workers/fair-share.ts';
import type { SceneJob, SceneOutput } from '../workers/scene-worker.ts';
import { apiRoutes } from './routes/index.ts';
import { SCENE_HEAP_MB, SCENE_TIMEOUT_MS } from './scene-content.ts';
import { checkPayloadShape, parseWith, refuseUnstorableText } from './validate.ts';

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

export const API_PREFIX = '/api/v1';
export const BODY_LIMIT_BYTES = 1024 * 1024;
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
/** Scene workers run at this nice level: below the server, above renders (10). */
const SCENE_NICE = 5;
/** Scene worker jobs (layout, lint, patch, edit) one caller may have running at once; the rest wait their turn. */
const SCENE_JOBS_PER_CALLER = 2;
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export interface BuildOptions {
  /** Fastify/pino logger settings; defaults to JSON logs at the configured level. */
  logger?: FastifyServerOptions['logger'];
}

const TOKEN_TEXT = /drw_pat_[0-9A-Za-z_]*/g;

/**
 * A URL as it may appear in logs, whatever route (or none) matched it:
 * anything shaped like an API token is masked wherever a client put it, and
 * so are the secrets of emailed links (`?token=` and `/reset/<token>`).
 */
export function redactUrl(url: string): string {
  return url
    .replace(TOKEN_TEXT, 'drw_pat_[redacted]')
    .replace(/([?&]token=)[^&#]*/gi, '$1[redacted]')
    .replace(/^\/reset\/[^/?#]+/, '/reset/[redacted]');
}

export function loggerOptions(level: string) {
  return {
    level,
    serializers: {
      req: (req: { method: string; url: string; hostname?: string; ip?: string; id?: string }) => ({
        method: req.method,
        url: redactUrl(req.url),
        host: req.hostname,
        remoteAddress: req.ip,
      }),
    },
    // Belt and braces: request logs never include headers, but if anything ever
    // logs one, the credential is masked.
    redact: { paths: ['req.headers.authorization', 'headers.authorization', 'authorization', 'token'], censor: '[redacted]' },
  };
}

/** Builds the HTTP application over the given store and settings; the caller listens. */
export async function buildApp(deps: AppDeps, options: BuildOptions = {}): Promise<FastifyInstance> {
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
  const scenePool = new WorkerPool<SceneJob, SceneOutput>(new URL('../workers/scene-worker.ts', import.meta.url), {
    size: Math.max(1, os.availableParallelism() - 1),
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
  const renderer = new Renderer({
    faithful: config.renderFaithful,
    workers: config.renderWorkers,
    timeoutMs: config.renderTimeoutMs,
    dataDirectory: config.dataDir,
    cacheBytes: config.renderCacheBytes,
    log: app.log,
  });
  app.addHook('onClose', () => Promise.all([scenePool.close(), renderer.close()]));
  app.decorate('renderer', renderer);
  const services: ServiceDeps = { ...deps, scenes, renderer };
  const rateLimits = new RateLimits(deps.config, deps.store.pgPool);
  const pageLimit = pageRequestLimit(deps.config, deps.store.pgPool);
  const authenticator = new Authenticator(deps);

  app.removeAllContentTypeParsers();
  // Every body is JSON, whatever Content-Type a client (curl -d, say) sends.
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
    if (requestPath(request.url).startsWith(API_PREFIX)) reply.header('RateLimit-Policy', rateLimits.policyHeader());
    const def = (request.routeOptions.config as RouteConfig).def;
    if (!def || 'public' in def.access) return;

    const { actor, apiEnabled } = await authenticator.resolve(request);
    if (!apiEnabled) throw new ApiError('api_disabled', 'the API is temporarily disabled by the operator');

    const limit = async (key: string) => {
      const decision = await rateLimits.consume(key, RateLimits.bucketFor(request.method));
      reply.header('RateLimit', RateLimits.stateHeader(decision));
      if (!decision.allowed) {
        throw new ApiError('rate_limited', `too many ${decision.bucket} requests; retry in ${decision.resetSeconds} s`, {
          'retry-after': String(decision.resetSeconds),
        });
      }
    };
    if (!actor) {
      // Unauthenticated traffic is limited per address, which also slows token guessing.
      await limit(`ip:${request.ip}`);
      throw new ApiError('unauthorized');
    }
    await limit(`user:${actor.user.id}`);
    if (!actor.user.emailVerified && !def.allowUnverified) {
      throw new ApiError('email_unverified', 'verify the account email address before using the API');
    }
    if ('capability' in def.access && !actor.capabilities.includes(def.access.capability)) {
      throw new ApiError('insufficient_scope', `this call needs a token with the "${def.access.capability}" capability`);
    }
    request.actor = actor;
  });

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

  const methodsByUrl = new Map<string, Set<string>>();
  for (const def of apiRoutes) {
    const url = def.url;
    const methods = methodsByUrl.get(url) ?? new Set<string>();
    methods.add(def.method);
    methodsByUrl.set(url, methods);
    app.route({
      method: def.method,
      url,
      config: { def } satisfies RouteConfig,
      handler: async (request, reply) => {
        if (request.body !== undefined) checkPayloadShape(request.body);
        refuseUnstorableText({ params: request.params, query: request.query, body: request.body });
        const body = def.body ? parseWith(def.body, request.body, 'body') : undefined;
        const query = def.query ? parseWith(def.query, request.query, 'query') : undefined;
        const result = await def.handler({
          body,
          query,
          params: request.params as Record<string, string>,
          actor: request.actor!,
          deps: services,
          request,
          reply,
        });
        if (result.status === 204) return reply.code(204).send();
        if ('rawJson' in result) return reply.code(result.status ?? 200).type('application/json; charset=utf-8').send(result.rawJson);
        if ('raw' in result) {
          return reply.code(result.status ?? 200).headers(result.headers ?? {}).type(result.contentType).send(result.raw);
        }
        return reply.code(result.status ?? 200).send((result as { json: unknown }).json);
      },
    });
  }
  for (const [url, allowed] of methodsByUrl) {
    const others = METHODS.filter((m) => !allowed.has(m));
    const allow = [...allowed, ...(allowed.has('GET') ? ['HEAD'] : [])].join(', ');
    const extra = allowed.has('GET') ? others : [...others, 'HEAD' as const];
    app.route({
      method: [...extra, 'OPTIONS'],
      url,
      handler: async () => {
        throw new ApiError('method_not_allowed', `allowed methods: ${allow}`, { allow });
      },
    });
  }

  await app.register(webAssetsPlugin);
  await app.register(publicPagePlugin, { deps: services, pageLimit });
  await app.register(webAppPlugin, { deps: services, pageLimit });
  await app.register(mcpEndpoint);
  return app;
}
