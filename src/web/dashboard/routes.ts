/**
 * The dashboard: `GET /app` lists the signed-in person's
 * diagrams; small POST forms star, rename, move, trash and restore them and
 * create folders, each through the same use case as the REST API, then send
 * the browser back (303) to the page it came from. Works without script.
 *
 *   GET  /app                         ?folder=<id> &starred=1 &view=trash &q=<text> &cursor=<c>
 *   GET  /app/d/:id/thumbnail.png     the fast PNG render, ETag and 304
 *   GET  /app/new                     the "New diagram" form, with an example spec (?folder=<id> preselects one)
 *   POST /app/diagrams                create from a spec (or blank: an empty spec, or blank=1) → 303 /app/d/:id
 *   POST /app/d/:id/{star,rename,move,trash,restore}
 *   POST /app/folders
 *   POST /app/d/:id/workspace         into a workspace (or out, with none): the owner only
 *   POST /app/workspaces              create one → 303 to its list
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ServiceDeps } from '../../app/deps.ts';
import { createDiagram } from '../../app/diagrams/create-diagram.ts';
import { browseDiagrams, diagramsOverview } from '../../app/diagrams/list-diagrams.ts';
import { setStarred } from '../../app/diagrams/set-starred.ts';
import { setTrashed } from '../../app/diagrams/set-trashed.ts';
import { updateDiagram } from '../../app/diagrams/update-diagram.ts';
import { createFolder } from '../../app/folders/create-folder.ts';
import { listFolders } from '../../app/folders/list-folders.ts';
import { moveDiagramToWorkspace } from '../../app/sharing/move-diagram.ts';
import { listReachableDiagrams, type Reach } from '../../app/sharing/reachable-diagrams.ts';
import { createWorkspace, listWorkspaces } from '../../app/workspaces/manage-workspaces.ts';
import { BODY_LIMIT_BYTES } from '../../edge/validate.ts';
import type { ApiError } from '../../errors.ts';
import { dashboardAssetTags } from '../assets.ts';
import { APP_PAGE_HEADERS, appPage } from '../layout.ts';
import { requireSession, verifyCsrf, type WebSession } from '../session.ts';
import { ALL_DIAGRAMS, type DashboardFilters, dashboardHref, parseFilters, returnPath } from './filters.ts';
import { folderTree } from './folder-tree.ts';
import { contentFromForm, EXAMPLES, formLanguage, isFormError, KIND_EXAMPLES, kindExample, type NewDiagramForm, newDiagramBody, parsedSpec } from './new-diagram.ts';
import { dashboardBody } from './page.ts';
import { DASHBOARD_STYLE } from './styles.ts';
import { serveThumbnail } from './thumbnail.ts';

/** Cards per page: a multiple of the grid's usual 2, 3 and 4 columns. */
export const DASHBOARD_PAGE_SIZE = 48;

type IdRequest = FastifyRequest<{ Params: { id: string } }>;

/** A text field of a submitted form; anything else (absent, or not text) is undefined. */
function field(request: FastifyRequest, name: string): string | undefined {
  const value = (request.body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : undefined;
}

/** A folder picker's value: '' is the root (null). */
function folderField(request: FastifyRequest, name: string): string | null {
  return field(request, name) || null;
}

function sendPage(reply: FastifyReply, session: WebSession, title: string, body: string, status = 200) {
  return reply.code(status).headers(APP_PAGE_HEADERS).send(appPage(title, body, { session, head: `${DASHBOARD_STYLE}\n${dashboardAssetTags()}` }));
}

async function listPage(deps: ServiceDeps, session: WebSession, filters: DashboardFilters) {
  const workspaces = await listWorkspaces(deps, session);
  if (filters.view === 'shared' || filters.workspaceId) {
    const reach: Reach = filters.workspaceId ? { kind: 'workspace', workspaceId: filters.workspaceId } : { kind: 'shared' };
    const [overview, page] = await Promise.all([diagramsOverview(deps, session), listReachableDiagrams(deps, session, { reach, cursor: filters.cursor, limit: DASHBOARD_PAGE_SIZE })]);
    return { folders: folderTree(overview.folders), counts: overview.counts, workspaces, diagrams: page.items, nextCursor: page.nextCursor };
  }
  const overview = await browseDiagrams(deps, session, {
    trashed: filters.view === 'trash',
    cursor: filters.cursor,
    limit: DASHBOARD_PAGE_SIZE,
    ...(filters.folderId ? { folderId: filters.folderId } : {}),
    ...(filters.starred ? { starred: true } : {}),
    ...(filters.q ? { titleContains: filters.q } : {}),
  });
  return { folders: folderTree(overview.folders), counts: overview.counts, workspaces, diagrams: overview.items, nextCursor: overview.nextCursor };
}

export async function dashboardRoutes(app: FastifyInstance, { deps }: { deps: ServiceDeps }) {
  app.get('/app', async (request, reply) => {
    const session = requireSession(request);
    const filters = parseFilters(request.query);
    const model = { session, filters, now: deps.now(), ...(await listPage(deps, session, filters)) };
    return sendPage(reply, session, 'Diagrams', dashboardBody(model));
  });

  app.get('/app/d/:id/thumbnail.png', (request: IdRequest, reply) => serveThumbnail(deps, request, reply));

  /** A state-changing dashboard form: signed in, CSRF first, then the command, then back where the form was. */
  const action = (url: string, run: (session: WebSession, request: IdRequest) => Promise<unknown>) =>
    app.post(url, async (request: IdRequest, reply) => {
      const session = requireSession(request);
      verifyCsrf(request, session, deps.config.publicUrl);
      await run(session, request);
      return reply.redirect(returnPath(field(request, 'back')), 303);
    });

  action('/app/d/:id/star', (session, request) => setStarred(deps, session, request.params.id, field(request, 'starred') === '1'));
  action('/app/d/:id/rename', (session, request) => updateDiagram(deps, session, request.params.id, { title: field(request, 'title') ?? '' }));
  action('/app/d/:id/move', (session, request) => updateDiagram(deps, session, request.params.id, { folderId: folderField(request, 'folderId') }));
  action('/app/d/:id/trash', (session, request) => setTrashed(deps, session, request.params.id, true));
  action('/app/d/:id/restore', (session, request) => setTrashed(deps, session, request.params.id, false));
  action('/app/folders', (session, request) => createFolder(deps, session, { name: field(request, 'name') ?? '', parentId: folderField(request, 'parentId') }));
  action('/app/d/:id/workspace', (session, request) => moveDiagramToWorkspace(deps, session, request.params.id, field(request, 'workspaceId') || null));

  // A new workspace opens at once, its creator its first admin.
  app.post('/app/workspaces', async (request, reply) => {
    const session = requireSession(request);
    verifyCsrf(request, session, deps.config.publicUrl);
    const workspace = await createWorkspace(deps, session, field(request, 'name') ?? '');
    return reply.redirect(dashboardHref({ ...ALL_DIAGRAMS, workspaceId: workspace.id }), 303);
  });

  const newDiagramPage = async (session: WebSession, reply: FastifyReply, form: NewDiagramForm, error: ApiError | null, status = 200) => {
    const folders = folderTree(await listFolders(deps, session));
    return sendPage(reply, session, 'New diagram', newDiagramBody(session, folders, form, error), status);
  };

  app.get('/app/new', async (request, reply) => {
    const session = requireSession(request);
    const { folderId } = parseFilters(request.query);
    const query = request.query as { language?: string; example?: string };
    const example = kindExample(query.example);
    if (example) return newDiagramPage(session, reply, { title: '', folderId, spec: KIND_EXAMPLES[example], language: 'mermaid' }, null);
    const language = formLanguage(query.language);
    return newDiagramPage(session, reply, { title: '', folderId, spec: EXAMPLES[language], language }, null);
  });

  // Form encoding can triple JSON's punctuation; the spec itself is then held to the API's 1 MiB.
  app.post('/app/diagrams', { bodyLimit: 3 * BODY_LIMIT_BYTES }, async (request, reply) => {
    const session = requireSession(request);
    verifyCsrf(request, session, deps.config.publicUrl);
    const blank = field(request, 'blank') === '1';
    const form: NewDiagramForm = { title: field(request, 'title') ?? '', folderId: folderField(request, 'folderId'), spec: blank ? '' : (field(request, 'spec') ?? ''), language: formLanguage(field(request, 'language')) };
    try {
      const { spec, ...content } = contentFromForm(form.spec, form.language);
      const checked = spec === undefined ? content : { ...content, spec: await parsedSpec(deps, session, spec) };
      const diagram = await createDiagram(deps, session, { title: form.title, folderId: form.folderId, ...checked });
      return reply.redirect(`/app/d/${diagram.id}`, 303);
    } catch (error) {
      if (!isFormError(error)) throw error;
      return newDiagramPage(session, reply, form, error, error.status);
    }
  });
}
