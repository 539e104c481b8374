/**
 * The editor: the page that mounts the Excalidraw component
 * (src/web/client/editor.tsx), the scene it loads and saves, and its live
 * connection (src/web/live), through which changes made elsewhere (another
 * person, the API, an agent, another tab) appear without a reload. Saves go through the same
 * read-compute-write as the API's content writes, guarded by the revision the
 * editor last saw (`expectedUpdatedAt`): a newer version is never overwritten.
 *
 * The history panel reads the diagram's revisions, previews one, and restores
 * it through the same use cases as the API's history routes; Copy as Mermaid
 * reads the diagram as text as the API's source route does.
 *
 * The JSON endpoints (`editorApiRoutes`) are declared like the API's, with a session access: the
 * web app serves them (web-api.ts).
 */
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import * as present from '../../api/presenters/diagrams.ts';
import { Diagram, DiagramSource, ExportLanguage } from '../../api/schemas.ts';
import { ListRevisionsQuery, RestoredRevision, RevisionList, RevisionScene } from '../../api/history-schemas.ts';
import { diagramFor } from '../../app/access.ts';
import { SCENE_CONTENT_ERRORS, SCENE_WORK_ERRORS } from '../../app/diagrams/content.ts';
import type { ServiceDeps } from '../../app/deps.ts';
import { diagramSource } from '../../app/diagrams/diagram-source.ts';
import { getDiagram } from '../../app/diagrams/get-diagram.ts';
import { mayEditDiagram, saveScene } from '../../app/diagrams/save-scene.ts';
import { getRevision } from '../../app/history/get-revision.ts';
import { listRevisions } from '../../app/history/list-revisions.ts';
import { restoreRevision } from '../../app/history/restore-revision.ts';
import { defineRoute } from '../../edge/route.ts';
import { NO_STORE } from '../static-response.ts';
import { pageSize } from '../../edge/validate.ts';
import { imageFiles } from '../../render/image-files.ts';
import { editorAssetTags } from '../assets.ts';
import { escapeHtml } from '../html.ts';
import { APP_PAGE_HEADERS, appPage } from '../layout.ts';
import { requireSession } from '../session.ts';
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

/** The images a scene's icons show in the editor, by file id (scenes are stored without them). */
const IconFiles = z.record(z.string(), z.unknown()).meta({ description: 'The images the scene\'s catalog icons show, by file id' });

const TAGS = ['web editor'];

/** The images a scene's catalog icons show in the editor (scenes are stored without them). */
function iconFiles(elements: readonly unknown[]): Record<string, unknown> {
  return imageFiles(elements as Record<string, unknown>[]).files;
}

export const editorApiRoutes = [
  defineRoute({
    operationId: 'webGetDiagram',
    method: 'GET',
    url: '/app/api/diagrams/:id',
    access: { session: true },
    tags: TAGS,
    summary: 'The diagram the editor opens, with its icons\' images',
    response: { status: 200, schema: Diagram.extend({ files: IconFiles }), description: 'The diagram' },
    errors: ['not_found'],
    handler: async ({ params, actor, deps }) => {
      const diagram = await getDiagram(deps, actor, params.id!);
      // The API's diagram, plus the images its icons show in the editor (the API leaves files to the client).
      const files = iconFiles(JSON.parse(diagram.elementsJson) as unknown[]);
      return { rawJson: present.diagramJson(diagram, deps.config.publicUrl, { files }), headers: NO_STORE };
    },
  }),
  defineRoute({
    operationId: 'webSaveScene',
    method: 'PUT',
    url: '/app/api/diagrams/:id/scene',
    access: { session: true },
    tags: TAGS,
    summary: 'Saves the editor\'s elements over the revision it last saw',
    body: SaveSceneBody,
    response: { status: 200, schema: z.object({ docUpdatedAt: z.string() }), description: 'The diagram\'s new revision clock' },
    errors: ['not_found', 'stale_read', 'csrf_failed', ...SCENE_CONTENT_ERRORS, ...SCENE_WORK_ERRORS],
    handler: async ({ params, body, actor, deps }) => {
      const docUpdatedAt = await saveScene(deps, actor, params.id!, body.elements, body.expectedUpdatedAt);
      return { json: { docUpdatedAt }, headers: NO_STORE };
    },
  }),
  defineRoute({
    operationId: 'webListRevisions',
    method: 'GET',
    url: '/app/api/diagrams/:id/revisions',
    access: { session: true },
    tags: TAGS,
    summary: 'One page of the diagram\'s revisions, for the history panel',
    query: ListRevisionsQuery,
    response: { status: 200, schema: RevisionList, description: 'One page of revisions' },
    errors: ['bad_request', 'not_found'],
    handler: async ({ params, query, actor, deps }) => {
      const page = await listRevisions(deps, actor, params.id!, { cursor: query.cursor || undefined, limit: pageSize(query.limit || undefined) });
      return { json: page, headers: NO_STORE };
    },
  }),
  defineRoute({
    operationId: 'webGetRevision',
    method: 'GET',
    url: '/app/api/diagrams/:id/revisions/:rev',
    access: { session: true },
    tags: TAGS,
    summary: 'The diagram as it was at one revision, with its icons\' images',
    response: { status: 200, schema: RevisionScene.extend({ files: IconFiles }), description: 'The diagram as it was' },
    errors: ['not_found'],
    handler: async ({ params, actor, deps }) => {
      const revision = await getRevision(deps, actor, params.id!, params.rev!);
      const { rev, at, kind, elementCount, elements } = revision;
      return { json: { id: params.id!, rev, at, kind, elementCount, scene: { elements, appState: {} }, files: iconFiles(elements) }, headers: NO_STORE };
    },
  }),
  defineRoute({
    operationId: 'webRestoreRevision',
    method: 'POST',
    url: '/app/api/diagrams/:id/revisions/:rev/restore',
    access: { session: true },
    tags: TAGS,
    summary: 'Brings a revision\'s scene back over the one the editor shows',
    body: RestoreRevisionBody,
    response: { status: 200, schema: RestoredRevision, description: 'What the restore wrote' },
    errors: ['not_found', 'stale_read', 'csrf_failed', ...SCENE_WORK_ERRORS],
    handler: async ({ params, body, actor, deps }) => {
      const restored = await restoreRevision(deps, actor, params.id!, params.rev!, { expectedUpdatedAt: body.expectedUpdatedAt });
      const { restoredFrom, docUpdatedAt, elements, unresolvedComments } = restored;
      return { json: { id: params.id!, rev: restored.rev, restoredFrom, docUpdatedAt, elements, unresolvedComments }, headers: NO_STORE };
    },
  }),
  defineRoute({
    operationId: 'webGetDiagramSource',
    method: 'GET',
    url: '/app/api/diagrams/:id/source',
    access: { session: true },
    tags: TAGS,
    summary: 'The diagram as text (its spec, Mermaid or DOT), for the editor\'s Copy as Mermaid',
    query: z.object({ language: ExportLanguage.optional() }),
    response: { status: 200, schema: DiagramSource, description: 'The text and what it leaves out' },
    errors: ['bad_request', 'not_found', ...SCENE_WORK_ERRORS],
    handler: async ({ params, query, actor, deps }) => ({ json: await diagramSource(deps, actor, params.id!, query.language ?? 'mermaid'), headers: NO_STORE }),
  }),
];

/** The editor's page and its live connection. */
export const editorRoutes: FastifyPluginAsync<{ deps: ServiceDeps }> = async (app, { deps }) => {
  await app.register(liveRoutes, { deps });

  app.get<{ Params: { id: string } }>('/app/d/:id', async (request, reply) => {
    const session = requireSession(request);
    const diagram = await diagramFor(deps, session, request.params.id, 'read');
    const canEdit = await mayEditDiagram(deps, session, diagram.id);
    const mount = `<div id="editor" data-diagram-id="${escapeHtml(diagram.id)}" data-csrf-token="${escapeHtml(session.csrfToken)}" data-can-edit="${canEdit}" data-title="${escapeHtml(diagram.title)}"></div>`;
    return reply.headers(APP_PAGE_HEADERS).send(appPage(diagram.title, mount, { session, head: editorAssetTags(), fullWindow: true }));
  });
};
