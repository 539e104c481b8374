import { resourcePath } from '../../../api/paths.ts';
import * as present from '../../../api/presenters/comments.ts';
import { Comment, CommentBody } from '../../../api/schemas.ts';
import { addComment as addCommentTo } from '../../../app/comments/add-comment.ts';
import { defineRoute } from '../../../edge/route.ts';

export const addComment = defineRoute({
  operationId: 'addComment',
  method: 'POST',
  url: '/api/v1/diagrams/:id/comments',
  access: { capability: 'write' },
  tags: ['comments'],
  summary: 'Comment on a diagram or one of its elements (extension)',
  description: '`elementId` anchors the comment to an element of the current scene; the comment is resolved automatically when a regenerate or patch removes that element.',
  body: CommentBody,
  response: {
    status: 201,
    schema: Comment,
    description: 'The new comment',
    headers: { Location: 'The new comment: /api/v1/diagrams/{id}/comments/{commentId}' },
  },
  errors: ['not_found'],
  handler: async ({ body, params, actor, deps }) => {
    const comment = await addCommentTo(deps, actor, params.id!, body);
    return { status: 201, json: present.comment(comment), headers: { location: resourcePath.comment(comment.diagramId, comment.id) } };
  },
});
