import { ListRevisionsQuery, RevisionList } from '../../../api/history-schemas.ts';
import { listRevisions as revisionsOf } from '../../../app/history/list-revisions.ts';
import { pageSize } from '../../../edge/validate.ts';
import { defineRoute } from '../../../edge/route.ts';

export const listRevisions = defineRoute({
  operationId: 'listRevisions',
  method: 'GET',
  url: '/api/v1/diagrams/:id/revisions',
  access: { capability: 'read' },
  tags: ['history'],
  summary: "List a diagram's revisions",
  description:
    'Every change to the diagram, newest first: each content write (create, edit, regenerate, patch, a save in the web editor, a restore) and each rename or move, with who made it, how (`via`: the API token by name, an OAuth app, the web editor, or the MCP tool with its token), a one-line summary and the element count after it. Cursor pagination as for the diagram list. Whoever may read the diagram may read its history.',
  query: ListRevisionsQuery,
  response: { status: 200, schema: RevisionList, description: 'One page of revisions' },
  errors: ['bad_request', 'not_found'],
  handler: async ({ params, query, actor, deps }) => {
    return { json: await revisionsOf(deps, actor, params.id!, { cursor: query.cursor, limit: pageSize(query.limit) }) };
  },
});
