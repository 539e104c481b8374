import { randomUUID } from 'node:crypto';
import { Comment, CommentBody } from '../../../api/schemas.ts';
import { badRequest } from '../../../errors.ts';
import { diagramWithElementsFor } from '../../diagram-access.ts';
import { present } from '../../presenters.ts';
import { defineRoute } from '../../route.ts';

export const addComment = defineRoute({
  operationId: 'addComment',
  method: 'POST',
  url: '/api/v1/diagrams/:id/comments',
  access: { capability: 'write' },
  tags: ['comments'],
  summary: 'Comment on a diagram or one of its elements (extension)',
  description: '`elementId` anchors the comment to an element of the current scene; the comment is resolved automatically when a regenerate or patch removes that element.',
  body: CommentBody,
  response: { status: 201, schema: Comment, description: 'The new comment' },
  errors: ['not_found'],
  handler: async ({ body, params, actor, deps }) => {
    const text = body.body.trim();
    if (text === '') throw badRequest('body must not be empty');
    const diagram = await diagramWithElementsFor(deps, actor, params.id!, 'write');
    const elementId = body.elementId ?? null;
    if (elementId !== null) {
      const elements = JSON.parse(diagram.elementsJson) as Array<{ id?: unknown; isDeleted?: unknown }>;
      if (!elements.some((e) => e.id === elementId && e.isDeleted !== true)) throw badRequest(`elementId "${elementId}" names no element of this diagram`);
    }
    const comment = await deps.store.addComment({
      id: randomUUID(),
      diagramId: diagram.id,
      elementId,
      body: text,
      authorId: actor.user.id,
      createdAt: deps.now().toISOString(),
      resolved: false,
      resolvedReason: null,
    });
    return { status: 201, json: present.comment(comment) };
  },
});
