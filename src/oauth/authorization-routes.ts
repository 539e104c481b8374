/**
 * The OAuth endpoints on the service's origin: the authorization server's
 * (oidc-provider's, handed the raw request) and the protected-resource
 * metadata of the API and the MCP endpoint (RFC 9728). The consent page the
 * authorization server sends people to is the web app's.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import { API_PREFIX } from '../api/paths.ts';
import { MCP_RESOURCE_PATH, OAUTH_PATHS, serviceResources } from '../api/oauth-paths.ts';
import { CAPABILITIES } from '../auth/capabilities.ts';
import type { AppDeps } from '../app/deps.ts';
import type { AuthorizationServer } from '../app/oauth/authorization-server.ts';
import { consumeOrWait } from '../edge/rate-limit.ts';
import { ApiError } from '../errors.ts';

export interface AuthorizationRoutesOptions {
  deps: AppDeps;
  authorizationServer: AuthorizationServer;
}

const HOUR_SECONDS = 3600;

/**
 * The CORS preflight of the endpoints a client running in a browser posts to
 * (token, revocation, registration): any origin may, as a public client in a
 * page must. The answer to the POST itself carries the provider's CORS headers.
 */
function preflight(reply: FastifyReply) {
  return reply
    .code(204)
    .header('access-control-allow-origin', '*')
    .header('access-control-allow-methods', 'POST')
    .header('access-control-allow-headers', 'authorization, content-type')
    .header('access-control-max-age', '3600')
    .send();
}

function protectedResourceMetadata(publicUrl: string, resource: string) {
  return {
    resource,
    authorization_servers: [publicUrl],
    scopes_supported: [...CAPABILITIES],
    bearer_methods_supported: ['header'],
    resource_name: 'Drawbridge',
  };
}

export const authorizationRoutes: FastifyPluginAsync<AuthorizationRoutesOptions> = async (app, { deps, authorizationServer }) => {
  const { publicUrl } = deps.config;
  const resources = serviceResources(publicUrl);
  let handle: ReturnType<Provider['callback']> | undefined;
  const registrations = deps.store.rateLimits.limiter({
    keyPrefix: 'oauth-register',
    points: deps.config.oauthRegistrationsPerHour,
    duration: HOUR_SECONDS,
  });

  // oidc-provider reads the body itself: leave the request stream unread.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));

  const toProvider = async (request: FastifyRequest, reply: FastifyReply, url = request.raw.url) => {
    // Before the reply is handed over, so that a failed build (the database unreachable) is answered as any error is.
    handle ??= (await authorizationServer()).callback();
    reply.hijack();
    reply.raw.setHeader('x-request-id', request.id);
    request.raw.url = url;
    handle(request.raw, reply.raw);
  };

  // RFC 8414's address for the document oidc-provider serves as OpenID discovery.
  app.get(OAUTH_PATHS.authorizationServerMetadata, async (request, reply) => toProvider(request, reply, OAUTH_PATHS.openidConfiguration));
  app.get(OAUTH_PATHS.openidConfiguration, async (request, reply) => toProvider(request, reply));

  // Only the paths oidc-provider serves are handed to it; any other /oauth/… is the service's own 404.
  const forward = async (request: FastifyRequest, reply: FastifyReply) => (request.method === 'OPTIONS' ? preflight(reply) : toProvider(request, reply));
  const protocolRoutes: Array<[string, Array<'GET' | 'POST' | 'OPTIONS'>]> = [
    [OAUTH_PATHS.authorization, ['GET']],
    // Where the consent page sends the browser back to resume the authorization request.
    [`${OAUTH_PATHS.authorization}/:uid`, ['GET']],
    [OAUTH_PATHS.token, ['POST', 'OPTIONS']],
    [OAUTH_PATHS.revocation, ['POST', 'OPTIONS']],
    [OAUTH_PATHS.jwks, ['GET']],
  ];
  for (const [url, method] of protocolRoutes) app.route({ method, url, handler: forward });
  app.route({
    method: ['POST', 'OPTIONS'],
    url: OAUTH_PATHS.registration,
    handler: async (request, reply) => {
      if (request.method === 'OPTIONS') return preflight(reply);
      if (request.method === 'POST') {
        // Registration is open to anyone, so it is counted per address (across instances on PostgreSQL).
        const wait = await consumeOrWait(registrations, request.ip);
        if (wait !== null) {
          throw new ApiError('rate_limited', `too many client registrations from this address; retry in ${wait} s`, { 'retry-after': String(wait) });
        }
      }
      return toProvider(request, reply);
    },
  });

  // Public documents: MCP hosts running in a browser read them across origins.
  for (const [path, resource] of [
    [OAUTH_PATHS.protectedResourceMetadata, resources.service],
    [`${OAUTH_PATHS.protectedResourceMetadata}${MCP_RESOURCE_PATH}`, resources.mcp],
    [`${OAUTH_PATHS.protectedResourceMetadata}${API_PREFIX}`, resources.api],
  ] as const) {
    app.get(path, async (_request, reply) => reply.header('access-control-allow-origin', '*').send(protectedResourceMetadata(publicUrl, resource)));
  }
};
