/**
 * The web app's own JSON endpoints (`/app/api/…`), which its scripts call: the editor's scene and
 * history, the sharing and members dialogs, the new-diagram preview and icon picker. Each is declared
 * with `defineRoute` and served by the same code as the REST API (its zod schemas are the validator,
 * the handler's types and the documented answer), with a session access: a person signed in, and on
 * every change (any method but GET and HEAD) the session's CSRF token from this site. Signed out, each
 * answers 401 `unauthorized` in the error envelope; a path's other methods answer 405.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { ServiceDeps } from '../app/deps.ts';
import type { RouteDef } from '../edge/route.ts';
import { serveRoutes } from '../edge/serve-route.ts';
import { newDiagramApiRoutes } from './dashboard/new-diagram-routes.ts';
import { workspaceApiRoutes } from './dashboard/workspace-routes.ts';
import { editorApiRoutes } from './editor/editor-routes.ts';
import { sharingApiRoutes } from './editor/sharing-routes.ts';
import { requireSession, verifyCsrf } from './session.ts';

export const webApiRoutes: readonly RouteDef[] = [...editorApiRoutes, ...sharingApiRoutes, ...workspaceApiRoutes, ...newDiagramApiRoutes];

export const webApiPlugin: FastifyPluginAsync<{ deps: ServiceDeps }> = async (app, { deps }) => {
  serveRoutes(app, webApiRoutes, deps, (request) => {
    const session = requireSession(request);
    verifyCsrf(request, session, deps.config.publicUrl);
    return session;
  });
};
