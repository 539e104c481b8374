/**
 * The REST API as a Fastify plugin: every route of `routes/`, behind bearer
 * authentication, the per-user rate limits and the route's capability; each
 * handler parses, makes one use-case call (src/app) and presents the result.
 */
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { API_PREFIX } from '../api/paths.ts';
import type { ServiceDeps } from '../app/deps.ts';
import { MCP_TOOL_HEADER, McpToolName } from '../api/history-schemas.ts';
import { throughMcpTool, TokenAuthenticator } from '../app/tokens/authenticate-token.ts';
import { bearerToken } from '../auth/token.ts';
import { requestPath, unauthorized } from '../edge/errors.ts';
import { RateLimits } from '../edge/rate-limit.ts';
import { serveRoutes } from '../edge/serve-route.ts';
import { ApiError, badRequest } from '../errors.ts';
import type { RouteConfig } from '../edge/route.ts';
import { apiRoutes } from './routes/index.ts';

const plugin: FastifyPluginAsync<{ deps: ServiceDeps }> = async (app, { deps }) => {
  const rateLimits = new RateLimits(deps.config, deps.store.rateLimits);
  const authenticator = new TokenAuthenticator(deps);

  app.addHook('onRequest', async (request, reply) => {
    const def = (request.routeOptions.config as RouteConfig).def;
    const byToken = def !== undefined && !('public' in def.access) && !('session' in def.access);
    if (byToken || requestPath(request.url).startsWith(API_PREFIX)) reply.header('RateLimit-Policy', rateLimits.policyHeader());
    if (!byToken) return;

    const { holder: actor, apiEnabled } = await authenticator.resolve(bearerToken(request.headers.authorization), (error) =>
      request.log.warn({ err: error }, 'could not record token use'),
    );
    if (!apiEnabled) throw new ApiError('api_disabled', 'the API is temporarily disabled by the operator');

    const limit = async (key: string) => {
      const decision = await rateLimits.consume(key, def.rateLimitBucket ?? RateLimits.bucketFor(request.method));
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
      throw unauthorized(def.resourceMetadataPath === undefined ? undefined : `${deps.config.publicUrl}${def.resourceMetadataPath}`);
    }
    await limit(`user:${actor.user.id}`);
    if (!actor.user.emailVerified && !def.allowUnverified) {
      throw new ApiError('email_unverified', 'verify the account email address before using the API');
    }
    if ('capability' in def.access && !actor.capabilities.includes(def.access.capability)) {
      throw new ApiError('insufficient_scope', `this call needs a token with the "${def.access.capability}" capability`);
    }
    const tool = request.headers[MCP_TOOL_HEADER];
    if (tool === undefined) request.actor = actor;
    else {
      const name = McpToolName.safeParse(tool);
      if (!name.success) throw badRequest(`the ${MCP_TOOL_HEADER} header names the MCP tool making the request: ${name.error.issues[0]?.message ?? 'one name'}`);
      request.actor = throughMcpTool(actor, name.data);
    }
  });

  serveRoutes(app, apiRoutes, deps, (request) => request.actor);
};

/**
 * Not encapsulated: its onRequest hook answers for the API's paths whatever matched them (a 404 under the prefix
 * gets the rate-limit policy too), and authenticates every route declared with a token access wherever it is
 * served (the hosted MCP endpoint's too).
 */
export const apiPlugin = fp(plugin, { name: 'drawbridge-api' });
