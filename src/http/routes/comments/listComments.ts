import * as present from '../../../api/presenters/comments.ts';
import { CommentList } from '../../../api/schemas.ts';
import { listComments as commentsOn } from '../../../app/comments/list-comments.ts';
import { defineRoute } from '../../../edge/route.ts';

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
    return { json: { items: (await commentsOn(deps, actor, params.id!)).map(present.comment) } };
  },
});
