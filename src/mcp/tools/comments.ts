/** `list_comments` and `add_comment`: a diagram's comments. */
import * as S from '../../api/schemas.ts';
import { diagramId, EXAMPLE_ID, onDiagram, read, type ToolKit } from '../tool-kit.ts';

export function registerCommentTools(kit: ToolKit): void {
  const { tool } = kit;
  tool(
    'list_comments',
    { description: 'List the comments on a diagram, with the element each is anchored to and whether it is resolved.', fields: { id: diagramId }, example: { id: EXAMPLE_ID }, annotations: read, about: onDiagram },
    (a, c) => c.listComments(a.id),
  );
  tool(
    'add_comment',
    { description: 'Add a comment to a diagram, optionally anchored to an element id.', fields: { id: diagramId, ...S.CommentBody.shape }, example: { id: EXAMPLE_ID, elementId: 'db', body: 'Is this the primary or a replica?' }, about: onDiagram },
    ({ id, ...body }, c) => c.addComment(id, body as S.CommentBody),
  );
}
