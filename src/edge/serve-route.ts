/**
 * Serves routes declared with `defineRoute` (route.ts) on a Fastify app, the same way for every
 * transport that has JSON endpoints (the REST API, the web app's own): who calls first, then the
 * request's cheap checks (unknown query parameters, the payload's shape, text PostgreSQL cannot
 * store), then the body and query parsed with the route's schemas, then the handler, whose answer
 * is sent as it says. A path's other methods answer 405 with the `Allow` header.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Caller, ServiceDeps } from '../app/deps.ts';
import { contentProblemsOf } from '../app/diagrams/content.ts';
import { ApiError } from '../errors.ts';
import type { RouteConfig, RouteDef } from './route.ts';
import { checkPayloadShape, parseBodyWith, parseWith, queryParameterNames, refuseUnknownQueryParameters, refuseUnstorableText } from './validate.ts';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/**
 * Who the request comes from, for the route's handler; throws the refusal when the caller may not
 * call (signed out, a wrong CSRF token). Undefined for a public route's anonymous caller.
 */
type CallerOfRequest = (request: FastifyRequest) => Caller | undefined;

export function serveRoutes(app: FastifyInstance, routes: readonly RouteDef[], deps: ServiceDeps, callerOf: CallerOfRequest): void {
  const methodsByUrl = new Map<string, Set<string>>();
  for (const def of routes) {
    const methods = methodsByUrl.get(def.url) ?? new Set<string>();
    methods.add(def.method);
    methodsByUrl.set(def.url, methods);
    const queryParameters = queryParameterNames(def.query);
    app.route({
      method: def.method,
      url: def.url,
      config: { def } satisfies RouteConfig,
      handler: async (request, reply) => {
        const actor = callerOf(request);
        refuseUnknownQueryParameters(request.query, queryParameters);
        const checked = def.handsOnBody ? undefined : request.body;
        if (checked !== undefined) checkPayloadShape(checked);
        refuseUnstorableText({ params: request.params, query: request.query, body: checked });
        // Content failing its schema is checked for its first problem, in a scene worker when it is large.
        const body = def.body ? await parseBodyWith(def.body, request.body, (kind, content) => contentProblemsOf(deps, actor, kind, content)) : undefined;
        const query = def.query ? parseWith(def.query, request.query, 'query') : undefined;
        const result = await def.handler({ body, query, params: request.params as Record<string, string>, actor: actor!, deps, request, reply });
        if ('hijacked' in result) return;
        if (result.status === 204) return reply.code(204).send();
        if ('headers' in result && result.headers) reply.headers(result.headers);
        if (result.status === 304) return reply.code(304).send();
        if ('rawJson' in result) return reply.code(result.status ?? 200).type('application/json; charset=utf-8').send(result.rawJson);
        if ('raw' in result) return reply.code(result.status ?? 200).type(result.contentType).send(result.raw);
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
}
