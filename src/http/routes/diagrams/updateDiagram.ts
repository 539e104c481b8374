import { UpdateDiagramBody, UpdatedDiagram } from '../../../api/schemas.ts';
import { sanitizeTitle } from '../../../domain/title.ts';
import { ApiError, badRequest } from '../../../errors.ts';
import { diagramFor } from '../../diagram-access.ts';
import { present } from '../../presenters.ts';
import { defineRoute } from '../../route.ts';
import { requireOwnFolder } from '../folders/ownership.ts';

export const updateDiagram = defineRoute<UpdateDiagramBody>({
  operationId: 'updateDiagram',
  method: 'PATCH',
  url: '/api/v1/diagrams/:id',
  access: { capability: 'write' },
  tags: ['diagrams'],
  summary: 'Rename or move a diagram',
  description:
    'At least one of `title` and `folderId`. The presence of the `folderId` key moves the diagram (a UUID into that folder, null to the root). Folders are personal, so only the owner can move a diagram.',
  body: UpdateDiagramBody,
  response: { status: 200, schema: UpdatedDiagram, description: 'The diagram summary' },
  errors: ['not_found', 'folder_forbidden'],
  handler: async ({ body, params, actor, deps }) => {
    if (body.title === undefined && body.folderId === undefined) throw badRequest('send at least one of "title" or "folderId"');
    const title = body.title === undefined ? undefined : sanitizeTitle(body.title);
    if (title === '') throw badRequest('title is empty after removing control characters and whitespace');
    const diagram = await diagramFor(deps, actor, params.id!, 'write');
    if (body.folderId !== undefined) {
      if (diagram.ownerId !== actor.user.id) throw new ApiError('folder_forbidden', 'only the owner can move a diagram between folders');
      if (body.folderId !== null) await requireOwnFolder(deps, actor, body.folderId);
    }
    const updated = await deps.store.updateDiagramMeta(diagram.id, {
      ...(title === undefined ? {} : { title }),
      ...(body.folderId === undefined ? {} : { folderId: body.folderId }),
      updatedAt: deps.now().toISOString(),
    });
    return { json: present.updated(updated ?? diagram) };
  },
});
