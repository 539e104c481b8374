/**
 * The web app for people: the front door (the landing page and the API and
 * MCP docs), sign-up and sign-in, API tokens, the dashboard and the editor.
 * Pages are rendered on the server; the editor is the Excalidraw component,
 * bundled by the project (assets.ts). Every route here is session-based
 * (session.ts); the REST API and /mcp stay bearer-only.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { ServiceDeps } from '../app/deps.ts';
import type { AuthorizationServer } from '../app/oauth/authorization-server.ts';
import { pruneHistory } from '../app/history/prune-history.ts';
import { purgeExpired } from '../app/operations/operations.ts';
import { clientLeft, incompleteRequest, requestPath, toApiError } from '../edge/errors.ts';
import type { PageRequestLimit } from '../edge/page-limits.ts';
import { refuseUnstorableText } from '../edge/validate.ts';
import { ApiError } from '../errors.ts';
import { escapeHtml } from './html.ts';
import { APP_PAGE_HEADERS, appPage } from './layout.ts';
import { dashboardRoutes } from './dashboard/routes.ts';
import { newDiagramRoutes } from './dashboard/new-diagram-routes.ts';
import { helpRoutes } from './help-page.ts';
import { editorRoutes } from './editor/editor-routes.ts';
import { frontDoorPlugin } from './front-door/plugin.ts';
import { SignInRequired, sessionPlugin } from './session.ts';
import { accountsPlugin } from './accounts/plugin.ts';
import { consentRoutes } from './oauth-consent.ts';
import { tokensPlugin } from './tokens.ts';
import { webApiPlugin } from './web-api.ts';

const PURGE_INTERVAL_MS = 60 * 60 * 1000;

/** JSON endpoints of the web app (used by its own scripts), as opposed to pages. */
const WEB_API_PREFIX = '/app/api/';

export interface WebDeps {
  deps: ServiceDeps;
  /** The per-address budget of the pages anyone can reach (the account pages, here). */
  pageLimit: PageRequestLimit;
  /** The OAuth authorization server, whose consent page this app serves. */
  authorizationServer: AuthorizationServer;
}

export const webAppPlugin: FastifyPluginAsync<WebDeps> = async (app, { deps, pageLimit, authorizationServer }) => {
  await app.register(sessionPlugin, { deps });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });

  // Expired sessions and emailed links are deleted, and diagrams' history pruned, at start and then hourly (one server doing it twice is harmless).
  const purge = async () => {
    await purgeExpired(deps).catch((error: unknown) => app.log.warn({ err: error }, 'could not purge expired sessions'));
    await pruneHistory(deps).catch((error: unknown) => app.log.warn({ err: error }, 'could not prune history'));
  };
  void purge();
  const purging = setInterval(purge, PURGE_INTERVAL_MS).unref();
  app.addHook('onClose', async () => clearInterval(purging));

  // Text PostgreSQL cannot store is refused anywhere in a web request, before any handler, as the API refuses it.
  app.addHook('preValidation', async (request) => {
    refuseUnstorableText({ params: request.params, query: request.query, body: request.body });
  });

  app.setErrorHandler((error, request, reply) => {
    const isWebApi = requestPath(request.url).startsWith(WEB_API_PREFIX);
    if (clientLeft(error, request)) {
      request.log.info('the client left before its request arrived in full');
      return reply.code(400).send(incompleteRequest().toBody());
    }
    if (error instanceof SignInRequired) {
      if (isWebApi) return reply.code(401).send(new ApiError('unauthorized', 'sign in first').toBody());
      const next = encodeURIComponent(request.url);
      return reply.redirect(`/login?next=${next}`, 303);
    }
    const apiError = toApiError(error);
    if (apiError.status >= 500) request.log.error({ err: error }, 'web request failed');
    reply.code(apiError.status).headers(apiError.headers);
    if (isWebApi) return reply.send(apiError.toBody());
    const message = apiError.status >= 500 ? 'Something went wrong on our side. Try again in a moment.' : apiError.message;
    return reply
      .headers(APP_PAGE_HEADERS)
      .send(appPage('Error', `<main class="narrow"><h1>That did not work</h1><p class="error">${escapeHtml(message)}</p><p><a href="/app">Back to your diagrams</a></p></main>`, { session: request.webSession }));
  });

  // The parts of the app, after the error handler so they all use it.
  await app.register(webApiPlugin, { deps });
  await app.register(editorRoutes, { deps });
  await app.register(dashboardRoutes, { deps });
  await app.register(newDiagramRoutes);
  await app.register(helpRoutes);
  await app.register(accountsPlugin, { deps, pageLimit });
  await app.register(tokensPlugin, { deps });
  await app.register(consentRoutes, { deps, authorizationServer });
  await app.register(frontDoorPlugin, { deps });
};
