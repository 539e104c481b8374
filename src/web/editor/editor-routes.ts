/**
 * The editor: the page that mounts the Excalidraw component
 * (src/web/client/editor.tsx), the scene it loads and saves, and its live
 * connection (src/web/live), through which changes made elsewhere (another
 * person, the API, an agent, another tab) appear without a reload. Saves go through the same
 * read-compute-write as the API's content writes, guarded by the revision the
 * editor last saw (`expectedUpdatedAt`): a newer version is never overwritten.
 *
 * The history panel reads the diagram's revisions, previews one, and restores
 * it through the same use cases as the API's history routes.
 */
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { present } from '../../api/presenters.ts';
import { diagramFor } from '../../app/access.ts';
import type { ServiceDeps } from '../../app/deps.ts';
import { getDiagram } from '../../app/diagrams/get-diagram.ts';
import { mayEditDiagram, saveScene } from '../../app/diagrams/save-scene.ts';
import { getRevision } from '../../app/history/get-revision.ts';
import { listRevisions } from '../../app/history/list-revisions.ts';
import { restoreRevision } from '../../app/history/restore-revision.ts';
import { checkPayloadShape, pageSize, parseWith } from '../../edge/validate.ts';
import { imageFiles } from '../../render/image-files.ts';
import { editorAssetTags } from '../assets.ts';
import { escapeHtml } from '../html.ts';
import { APP_PAGE_HEADERS, appPage } from '../layout.ts';
import { requireSession, verifyCsrf } from '../session.ts';
import { liveRoutes } from '../live/live-routes.ts';

const SaveSceneBody = z.strictObject({
  elements: z.array(z.unknown()),
  /** The revision the editor's elements were based on (its docUpdatedAt). */
  expectedUpdatedAt: z.string(),
});

const RestoreRevisionBody = z.strictObject({
  /** The revision the editor shows as current (its docUpdatedAt): a diagram changed since is not restored over. */
  expectedUpdatedAt: z.string(),
});

/** The images a scene's catalog icons show in the editor (scenes are stored without them). */
function iconFiles(elements: readonly unknown[]): Record<string, unknown> {
  return imageFiles(elements as Record<string, unknown>[]).files;
}

export const editorRoutes: FastifyPluginAsync<{ deps: ServiceDeps }> = async (app, { deps }) => {
  await app.register(liveRoutes, { deps });

  app.get<{ Params: { id: string } }>('/app/d/:id', async (request, reply) => {
    const session = requireSession(request);
    const diagram = await diagramFor(deps, session, request.params.id, 'read');
    const canEdit = await mayEditDiagram(deps, session, diagram.id);
    const mount = `<div id="editor" data-diagram-id="${escapeHtml(diagram.id)}" data-csrf-token="${escapeHtml(session.csrfToken)}" data-can-edit="${canEdit}" data-title="${escapeHtml(diagram.title)}"></div>`;
    return reply.headers(APP_PAGE_HEADERS).send(appPage(diagram.title, mount, { session, head: editorAssetTags(), fullWindow: true }));
  });

  app.get<{ Params: { id: string } }>('/app/api/diagrams/:id', async (request, reply) => {
    const session = requireSession(request);
    const diagram = await getDiagram(deps, session, request.params.id);
    // The API's diagram, plus the images its icons show in the editor (the API leaves files to the client).
    const files = iconFiles(JSON.parse(diagram.elementsJson) as unknown[]);
    const json = `${present.diagramJson(diagram, deps.config.publicUrl).slice(0, -1)},"files":${JSON.stringify(files)}}`;
    return reply.header('cache-control', 'no-store').type('application/json; charset=utf-8').send(json);
  });

  app.put<{ Params: { id: string } }>('/app/api/diagrams/:id/scene', async (request, reply) => {
    const session = requireSession(request);
    verifyCsrf(request, session, deps.config.publicUrl);
    checkPayloadShape(request.body);
    const body = parseWith(SaveSceneBody, request.body, 'body');
    const docUpdatedAt = await saveScene(deps, session, request.params.id, body.elements, body.expectedUpdatedAt);
    return reply.header('cache-control', 'no-store').send({ docUpdatedAt });
  });

  app.get<{ Params: { id: string }; Querystring: { cursor?: string; limit?: string } }>('/app/api/diagrams/:id/revisions', async (request, reply) => {
    const session = requireSession(request);
    const { cursor, limit } = request.query;
    const page = await listRevisions(deps, session, request.params.id, { cursor: cursor || undefined, limit: pageSize(limit || undefined) });
    return reply.header('cache-control', 'no-store').send(page);
  });

  app.get<{ Params: { id: string; rev: string } }>('/app/api/diagrams/:id/revisions/:rev', async (request, reply) => {
    const session = requireSession(request);
    const { id, rev } = request.params;
    const revision = await getRevision(deps, session, id, rev);
    return reply.header('cache-control', 'no-store').send({
      id,
      rev: revision.rev,
      at: revision.at,
      kind: revision.kind,
      elementCount: revision.elementCount,
      scene: { elements: revision.elements, appState: {} },
      files: iconFiles(revision.elements),
    });
  });

  app.post<{ Params: { id: string; rev: string } }>('/app/api/diagrams/:id/revisions/:rev/restore', async (request, reply) => {
    const session = requireSession(request);
    verifyCsrf(request, session, deps.config.publicUrl);
    checkPayloadShape(request.body);
    const body = parseWith(RestoreRevisionBody, request.body, 'body');
    const { id, rev } = request.params;
    const restored = await restoreRevision(deps, session, id, rev, { expectedUpdatedAt: body.expectedUpdatedAt });
    const { restoredFrom, docUpdatedAt, elements, unresolvedComments } = restored;
    return reply.header('cache-control', 'no-store').send({ id, rev: restored.rev, restoredFrom, docUpdatedAt, elements, unresolvedComments });
  });
};
