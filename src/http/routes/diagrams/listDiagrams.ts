import * as present from '../../../api/presenters/diagrams.ts';
import { DiagramPage, ListDiagramsQuery } from '../../../api/schemas.ts';
import { listDiagrams as diagramsOf } from '../../../app/diagrams/list-diagrams.ts';
import { listReachableDiagrams, type Reach } from '../../../app/sharing/reachable-diagrams.ts';
import { pageSize } from '../../../edge/validate.ts';
import { badRequest } from '../../../errors.ts';
import { defineRoute } from '../../../edge/route.ts';

/** Whose diagrams the query asks for besides the caller's own (`filter=shared`, `workspace`); null: the caller's own. */
function reachOf(query: ListDiagramsQuery): Reach | null {
  const reach: Reach | null =
    query.workspace !== undefined ? { kind: 'workspace', workspaceId: query.workspace } : query.filter === 'shared' ? { kind: 'shared' } : null;
  if (reach === null) return null;
  if (query.workspace !== undefined && query.filter !== undefined && query.filter !== 'active') {
    throw badRequest('workspace lists the active diagrams of a workspace; leave filter out (or active)');
  }
  if (query.q || query.folderId !== undefined || query.starred !== undefined) {
    throw badRequest('q, folderId and starred narrow your own diagrams only; leave them out with filter=shared or workspace');
  }
  return reach;
}

export const listDiagrams = defineRoute({
  operationId: 'listDiagrams',
  method: 'GET',
  url: '/api/v1/diagrams',
  access: { capability: 'read' },
  tags: ['diagrams'],
  summary: 'List your diagrams',
  description:
    'Diagrams the caller owns, newest first (by creation), with cursor pagination that stays stable when diagrams are created between pages. `filter=trash` lists trashed ones. `q`, `folderId` and `starred` narrow the list and combine with each other and with `filter`; a cursor is valid only with the filters of the request that returned it. Extensions: `filter=shared` lists the active diagrams others own that are shared with you or in a workspace you belong to, and `workspace=<id>` the active diagrams of a workspace you belong to; their items also carry `role` (yours on the diagram) and `workspaceId`.',
  query: ListDiagramsQuery,
  response: { status: 200, schema: DiagramPage, description: 'One page' },
  errors: ['bad_request', 'not_found'],
  handler: async ({ query, actor, deps }) => {
    const limit = pageSize(query.limit);
    const cursor = query.cursor ?? null;
    const reach = reachOf(query);
    if (reach !== null) {
      const page = await listReachableDiagrams(deps, actor, { reach, cursor, limit });
      return { json: { items: page.items.map((d) => present.reachableItem(d, deps.config.publicUrl)), nextCursor: page.nextCursor } };
    }
    const page = await diagramsOf(deps, actor, {
      trashed: query.filter === 'trash',
      cursor,
      limit,
      ...(query.q ? { titleContains: query.q } : {}),
      ...(query.folderId === undefined ? {} : { folderId: query.folderId === 'none' ? null : query.folderId }),
      ...(query.starred === undefined ? {} : { starred: query.starred === 'true' }),
    });
    return { json: { items: page.items.map((d) => present.listItem(d, deps.config.publicUrl)), nextCursor: page.nextCursor } };
  },
});
