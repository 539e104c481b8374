import * as present from '../../../api/presenters/comments.ts';
import { Comment } from '../../../api/schemas.ts';
import { getComment as commentOf } from '../../../app/comments/get-comment.ts';
import { defineRoute } from '../../../edge/route.ts';

export const getComment = defineRoute({
  operationId: 'getComment',
  method: 'GET',
  url: '/api/v1/diagrams/:id/comments/:commentId',
  access: { capability: 'read' },
  tags: ['comments'],
  summary: 'Get one comment (extension)',
  description: 'Where POST /diagrams/{id}/comments points its Location.',
  response: { status: 200, schema: Comment, description: 'The comment' },
  errors: ['not_found'],
  handler: async ({ params, actor, deps }) => {
    return { json: present.comment(await commentOf(deps, actor, params.id!, params.commentId!)) };
  },
});
