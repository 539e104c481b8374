import { CommentList } from '../../../api/schemas.ts';
import { diagramFor } from '../../diagram-access.ts';
import { present } from '../../presenters.ts';
import { defineRoute } from '../../route.ts';

export const listComments = defineRoute({
  operationId: 'listComments',
  method: 'GET',
  url: '/api/v1/diagrams/:id/comments',
  access: { capability: 'read' },
  tags: ['comments'],
  summary: "List a diagram's comments (extension)",
  description: 'Oldest first. A comment whose element a regenerate or patch removed is `resolved: true, resolvedReason: "element_removed"`.',
  response: { status: 200, schema: CommentList, description: 'All comments' },
  errors: ['not_found'],
  handler: async ({ params, actor, deps }) => {
    const diagram = await diagramFor(deps, actor, params.id!, 'read');
    return { json: { items: (await deps.store.listComments(diagram.id)).map(present.comment) } };
  },
});
