import { present } from '../../../api/presenters.ts';
import { DiagramPage, ListDiagramsQuery } from '../../../api/schemas.ts';
import { listDiagrams as diagramsOf } from '../../../app/diagrams/list-diagrams.ts';
import { pageSize } from '../../../edge/validate.ts';
import { defineRoute } from '../../route.ts';

export const listDiagrams = defineRoute({
  operationId: 'listDiagrams',
  method: 'GET',
  url: '/api/v1/diagrams',
  access: { capability: 'read' },
  tags: ['diagrams'],
  summary: 'List your diagrams',
  description:
    'Diagrams the caller owns, newest first (by creation), with cursor pagination that stays stable when diagrams are created between pages. `filter=trash` lists trashed ones. `q`, `folderId` and `starred` narrow the list and combine with each other and with `filter`; a cursor is valid only with the filters of the request that returned it.',
  query: ListDiagramsQuery,
  response: { status: 200, schema: DiagramPage, description: 'One page' },
  errors: ['bad_request', 'not_found'],
  handler: async ({ query, actor, deps }) => {
    const page = await diagramsOf(deps, actor, {
      trashed: query.filter === 'trash',
      cursor: query.cursor ?? null,
      limit: pageSize(query.limit),
      ...(query.q ? { titleContains: query.q } : {}),
      ...(query.folderId === undefined ? {} : { folderId: query.folderId === 'none' ? null : query.folderId }),
      ...(query.starred === undefined ? {} : { starred: query.starred === 'true' }),
    });
    return { json: { items: page.items.map((d) => present.listItem(d, deps.config.publicUrl)), nextCursor: page.nextCursor } };
  },
});
